import { describe, Effect, expect, it, TestClock } from "@studio-effect/line"
import { MaestroSchema } from "studio-effect"
import { detect } from "studio-effect-core/reference/language"
import * as Reference from "studio-effect/reference"
import { call } from "./support.js"

const inService = <A, E>(effect: Effect.Effect<A, E, any>, options: Reference.ReferenceOptions = {}) =>
  Effect.provide(effect, Reference.layer(options)) as Effect.Effect<A, E>

const create = (body: Record<string, unknown>) =>
  Effect.map(call("POST", "/studio/v1/maestro/runs", { body }), (answer) => {
    expect(answer.status, answer.text).toBe(200)
    return answer.json
  })

const retrieve = (id: string) => Effect.map(call("GET", `/studio/v1/maestro/runs/${id}`), (answer) => answer.json)

/** Creates a run and moves the clock far enough for any budget. */
const completed = (body: Record<string, unknown>) =>
  Effect.gen(function*() {
    const run = yield* create(body)
    yield* TestClock.adjust("1 minute")
    const done = yield* retrieve(run.id)
    expect(done.status).toBe("completed")
    return done
  })

const scoreOf = (run: any, name: string) => run.requirements_result.requirements.find((r: any) => r.name === name)

describe("runs progress on Effect's clock, in steps that grow with the budget", () => {
  for (const [budget, steps] of [["low", 1], ["medium", 3], ["high", 9]] as const) {
    it.effect(`${budget}: in progress until ${steps} step(s) of 200 ms have passed`, () =>
      inService(Effect.gen(function*() {
        const run = yield* create({ input: "Summarise the plan", budget })
        expect(run).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          status: "in_progress",
          result: null,
          created_at: new Date(0).toISOString()
        })
        yield* TestClock.adjust(steps * 200 - 1)
        expect((yield* retrieve(run.id)).status).toBe("in_progress")
        yield* TestClock.adjust(1)
        const done = yield* retrieve(run.id)
        expect(done.status).toBe("completed")
        expect(typeof done.result).toBe("string")
        expect(done).not.toHaveProperty("requirements_result")
        expect(done).not.toHaveProperty("data_sources")
      })))
  }

  it.effect("the step duration is an option", () =>
    inService(
      Effect.gen(function*() {
        const run = yield* create({ input: "x", budget: "medium" })
        yield* TestClock.adjust("2 seconds")
        expect((yield* retrieve(run.id)).status).toBe("in_progress")
        yield* TestClock.adjust("1 second")
        expect((yield* retrieve(run.id)).status).toBe("completed")
      }),
      { runStepDuration: "1 second" }
    ))

  it.effect("a run can be made to fail, with error.message", () =>
    inService(
      Effect.gen(function*() {
        const ok = yield* completed({ input: "fine" })
        expect(ok.status).toBe("completed")
        const run = yield* create({ input: "please fail" })
        expect(run.status).toBe("in_progress")
        yield* TestClock.adjust("1 minute")
        expect(yield* retrieve(run.id)).toEqual({
          id: run.id,
          status: "failed",
          result: null,
          error: { message: "the engine could not finish" },
          created_at: run.created_at
        })
      }),
      { failRun: (run) => run.input === "please fail" ? "the engine could not finish" : undefined }
    ))

  it.effect("an unknown run is a 404", () =>
    inService(Effect.gen(function*() {
      const answer = yield* call("GET", "/studio/v1/maestro/runs/0b1c0000-0000-4000-8000-000000000000")
      expect(answer.status).toBe(404)
      expect(typeof answer.json.detail).toBe("string")
    })))
})

describe("requirements are checked on the result", () => {
  const include = ["requirements_result"]

  it.effect("a word limit is met by revising at medium, and scored honestly at low when not mandatory", () =>
    inService(Effect.gen(function*() {
      const requirements = [{ name: "short", description: "Keep it to at most 8 words." }]
      const medium = yield* completed({ input: "Describe the ocean", requirements, include, budget: "medium" })
      expect(MaestroSchema.countWords(medium.result)).toBeLessThanOrEqual(8)
      expect(scoreOf(medium, "short")).toMatchObject({
        score: 1,
        is_mandatory: false,
        description: requirements[0]!.description
      })
      expect(medium.requirements_result.score).toBe(1)
      const low = yield* completed({ input: "Describe the ocean", requirements, include, budget: "low" })
      expect(MaestroSchema.countWords(low.result)).toBeGreaterThan(8)
      expect(scoreOf(low, "short").score).toBeLessThan(1)
      expect(scoreOf(low, "short").reason).toMatch(/over the limit of 8/)
    })))

  it.effect("a mandatory requirement that is not met makes the overall score 0", () =>
    inService(Effect.gen(function*() {
      const run = yield* completed({
        input: "Describe the ocean",
        budget: "medium",
        include,
        requirements: [
          { name: "tiny", description: "at most 3 words", is_mandatory: true },
          { name: "long", description: "at least 40 words", is_mandatory: true }
        ]
      })
      const scores = run.requirements_result.requirements.map((r: any) => r.score)
      expect(Math.min(...scores)).toBeLessThan(1)
      expect(run.requirements_result.score).toBe(0)
    })))

  it.effect("a language, a numbered list, required and forbidden words, and JSON are really checked", () =>
    inService(Effect.gen(function*() {
      const list = yield* completed({
        input: "Give me steps to plant a tree. Dig a hole, place the tree, water it.",
        budget: "medium",
        include,
        requirements: [
          { name: "list", description: "Answer as a numbered list of 3 items" },
          { name: "words", description: "Include the words \"spade\" and \"mulch\"" },
          { name: "avoid", description: "Do not use the word \"tree\"" }
        ]
      })
      expect(list.result.split("\n").filter((line: string) => /^\d+\. /.test(line))).toHaveLength(3)
      expect(list.result).toContain("spade")
      expect(list.result).toContain("mulch")
      expect(list.result.toLowerCase()).not.toContain("tree")
      expect(list.requirements_result.requirements.map((r: any) => r.score)).toEqual([1, 1, 1])
      const json = yield* completed({
        input: "Summarise",
        budget: "medium",
        include,
        requirements: [{ name: "json", description: "Return JSON", is_mandatory: true }]
      })
      expect(() => JSON.parse(json.result)).not.toThrow()
      expect(json.requirements_result.score).toBe(1)
      const german = yield* completed({
        input: "Describe the river",
        budget: "medium",
        include,
        requirements: [{ name: "language", description: "Write in German" }]
      })
      expect(detect(german.result)).toBe("german")
      expect(scoreOf(german, "language").score).toBe(1)
    })))

  it.effect("a requirement the service cannot check counts as met, and says so", () =>
    inService(Effect.gen(function*() {
      const run = yield* completed({
        input: "Write a note",
        include,
        requirements: [{ name: "tone", description: "Sound warm and friendly", is_mandatory: true }]
      })
      expect(scoreOf(run, "tone")).toMatchObject({ score: 1, reason: expect.stringMatching(/cannot check/) })
      expect(run.requirements_result.score).toBe(1)
    })))

  it.effect("high budget tries several strategies and keeps the best scoring one", () =>
    inService(Effect.gen(function*() {
      const body = {
        input: "Plan a picnic. Bring food. Find a park.",
        include: ["requirements_result"],
        requirements: [{ name: "one", description: "Answer in a single sentence" }]
      }
      const high = yield* completed({ ...body, budget: "high" })
      expect(scoreOf(high, "one").score).toBe(1)
      const low = yield* completed({ ...body, budget: "low" })
      expect(scoreOf(low, "one").score).toBeLessThan(1)
    })))
})

describe("response language", () => {
  it.effect("response_language is honoured", () =>
    inService(Effect.gen(function*() {
      for (const language of ["french", "spanish", "german", "italian", "portuguese", "dutch", "arabic", "hebrew"]) {
        const run = yield* completed({ input: "Describe the weather", response_language: language })
        expect(detect(run.result), language).toBe(language)
      }
    })))

  it.effect("without it, the answer uses the input's language", () =>
    inService(Effect.gen(function*() {
      const run = yield* completed({ input: "¿Qué es lo que hace el servicio con la conversación?" })
      expect(detect(run.result)).toBe("spanish")
    })))
})

describe("data sources", () => {
  it.effect("web_search URL filters give the prefixes the spec describes; file_search finds nothing in an empty library", () =>
    inService(Effect.gen(function*() {
      const run = yield* completed({
        input: "Find sources",
        include: ["data_sources"],
        tools: [
          {
            type: "web_search",
            urls: ["https://example.com", "example.org", "example.net/docs/guide", "blog.example.com"]
          },
          { type: "file_search", labels: ["policies"], file_ids: ["file-1", "file-2"] },
          { type: "file_search", labels: ["faq"] }
        ]
      })
      // each web source with its text (what was searched for under it) and a score falling with its place
      expect(run.data_sources).toEqual({
        web_search: [
          {
            url: "https://www.example.com/",
            text: "Pages under https://www.example.com/ about \"Find sources\"",
            score: 1
          },
          {
            url: "https://www.example.org/",
            text: "Pages under https://www.example.org/ about \"Find sources\"",
            score: 0.5
          },
          {
            url: "https://www.example.net/docs/guide",
            text: "Pages under https://www.example.net/docs/guide about \"Find sources\"",
            score: 0.333
          },
          {
            url: "https://blog.example.com/",
            text: "Pages under https://blog.example.com/ about \"Find sources\"",
            score: 0.25
          }
        ],
        file_search: []
      })
      expect(run).not.toHaveProperty("requirements_result")
    })))

  it.effect("the legacy tool_resources body is used too; no search tool gives no sources", () =>
    inService(Effect.gen(function*() {
      const legacy = yield* completed({
        input: "x",
        include: ["data_sources"],
        tool_resources: { web_search: { urls: ["docs.example.com"] }, file_search: { file_ids: ["f"] } }
      })
      expect(legacy.data_sources).toEqual({
        web_search: [{
          url: "https://docs.example.com/",
          text: "Pages under https://docs.example.com/ about \"x\"",
          score: 1
        }],
        file_search: []
      })
      const none = yield* completed({ input: "x", include: ["data_sources"] })
      expect(none.data_sources).toEqual({})
    })))
})
