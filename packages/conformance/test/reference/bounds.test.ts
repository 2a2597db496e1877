/**
 * The reference service's bounds, over a real socket (`Reference.listen` on 127.0.0.1) through every
 * transport: hostile tool and answer schemas get a small 200 or a 4xx; requirements asking for a billion
 * words or items get a bounded result; stores evict their oldest runs and assistants and refuse an
 * assistant over the size cap; no text it writes holds a lone surrogate.
 */
import { describe, Effect, expect, FetchHttpClient, type HttpClient, it, transportLayers } from "@studio-effect/line"
import * as fc from "fast-check"
import { defaultAssistantStoreLimits } from "studio-effect-core/reference/assistants"
import { defaultLimits } from "studio-effect-core/reference/jsonSchemaValue"
import { maxWrittenWords } from "studio-effect-core/reference/requirements"
import * as Reference from "studio-effect/reference"
import { hostileSchema } from "../../../core/test/fixtures/hostileSchema.js"
import { isWellFormed } from "../../../core/test/fixtures/text.js"
import { type Answer, call, events } from "./support.js"

const chatPath = "/studio/v1/chat/completions"
const runsPath = "/studio/v1/maestro/runs"
const assistantsPath = "/studio/v1/assistants"

/** The most an answer to a small request may weigh: the generator's budget with room for the envelope. */
const maxAnswerLength = 2 * defaultLimits.maxSize + 16 * defaultLimits.maxStringLength

/** Runs `f` against a service listening on 127.0.0.1 (port 0), with its base URL. */
const served = <A, E>(
  options: Reference.ListenOptions,
  f: (baseUrl: string) => Effect.Effect<A, E, HttpClient.HttpClient>
) =>
  Effect.scoped(Effect.gen(function*() {
    const server = yield* Reference.listen(options)
    return yield* f(server.url)
  }))

/** A 200, or a 4xx with a JSON `detail`: never a 5xx. */
const isServed = (answer: Answer) => {
  if (answer.status === 200) return
  expect(answer.status, answer.text.slice(0, 300)).toBeGreaterThanOrEqual(400)
  expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500)
  expect(answer.json).toHaveProperty("detail")
}

const toolRequest = (parameters: unknown, content = "Find \"Lyon\" in 3 days") => ({
  model: "fpmodel-mini",
  messages: [{ role: "user", content }],
  tools: [{ type: "function", function: { name: "lookup", description: "Looks up a place", parameters } }]
})

/** Arrays nested `levels` deep, each asking for `minItems` items. */
const nestedArrays = (levels: number, minItems: number): unknown => {
  let schema: unknown = { type: "string", minLength: 1000 }
  for (let i = 0; i < levels; i++) schema = { type: "array", minItems, items: schema }
  return schema
}

/** The schemas that answered 500, blocked the event loop or killed the process before the bounds. */
const hostileParameters: ReadonlyArray<readonly [string, unknown]> = [
  ["minLength: 1e9", { type: "object", properties: { s: { type: "string", minLength: 1e9 } }, required: ["s"] }],
  ["minItems: 1e7", { type: "object", properties: { a: { type: "array", minItems: 1e7 } }, required: ["a"] }],
  ["arrays 5 deep with minItems 100", { type: "object", properties: { a: nestedArrays(5, 100) }, required: ["a"] }],
  ["minProperties: 1e9", { type: "object", minProperties: 1e9 }],
  ["a $ref cycle", {
    type: "object",
    properties: { self: { $ref: "#" }, list: { type: "array", minItems: 1e6, items: { $ref: "#" } } },
    required: ["self", "list"]
  }],
  ["a $ref chain with no end", { $ref: "#/$defs/a", $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } } }],
  ["allOf through the root", { type: "object", allOf: [{ $ref: "#" }, { $ref: "#" }], minProperties: 50 }],
  ["enum of a huge list", { type: "object", properties: { e: { enum: Array.from({ length: 50_000 }, (_, i) => i) } } }]
]

for (const [transport, clientLayer] of transportLayers) {
  describe(`reference bounds over a socket (${transport})`, () => {
    it.effect(
      "tool arguments stay small whatever the parameter schema asks, and the service answers on",
      () =>
        served({}, (baseUrl) =>
          Effect.gen(function*() {
            for (const [what, parameters] of hostileParameters) {
              const answer = yield* call("POST", chatPath, { baseUrl, body: toolRequest(parameters) })
              expect(answer.status, what).toBe(200)
              expect(answer.text.length, what).toBeLessThanOrEqual(maxAnswerLength)
              const toolCall = answer.json.choices[0].message.tool_calls[0]
              const args = JSON.parse(toolCall.function.arguments)
              expect(typeof args === "object" && args !== null && !Array.isArray(args), what).toBe(true)
            }
            const plain = yield* call("POST", chatPath, {
              baseUrl,
              body: { model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] }
            })
            expect(plain.status).toBe(200)
          })).pipe(Effect.provide(clientLayer)),
      60_000
    )

    it.effect(
      "random JSON Schemas as tool parameters and as JSON-mode answer schemas: a small 200 or a 4xx",
      () =>
        served({}, (baseUrl) =>
          Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(hostileSchema, fc.boolean(), (schema, jsonMode) =>
                Effect.runPromise(Effect.provide(
                  Effect.gen(function*() {
                    const body = jsonMode
                      ? {
                        model: "fpmodel-mini",
                        messages: [
                          { role: "system", content: `Answer in JSON. JSON Schema: ${JSON.stringify(schema)}` },
                          { role: "user", content: "Give me \"Lyon\" with 3 days" }
                        ],
                        response_format: { type: "json_object" }
                      }
                      : toolRequest(schema)
                    const answer = yield* call("POST", chatPath, { baseUrl, body })
                    isServed(answer)
                    expect(answer.text.length).toBeLessThanOrEqual(maxAnswerLength)
                  }),
                  clientLayer
                ))),
              { numRuns: 60 }
            )
          )).pipe(Effect.provide(clientLayer)),
      120_000
    )

    it.effect(
      "requirements asking for a billion words or items, or made of unclosed quotes, get a bounded run",
      () =>
        served({ runStepDuration: 0 }, (baseUrl) =>
          Effect.gen(function*() {
            const descriptions = [
              "The answer must be at least 1000000000 words long.",
              `At least ${"9".repeat(400)} words.`,
              "A numbered list of 1000000000 items.",
              "A bulleted list of 1000000000 bullets.",
              "“".repeat(200_000),
              "«".repeat(200_000),
              `${"1 ".repeat(100_000)}items`
            ]
            for (const description of descriptions) {
              const created = yield* call("POST", runsPath, {
                baseUrl,
                body: {
                  input: "“".repeat(50_000),
                  budget: "medium",
                  requirements: [{ name: "r", description }]
                }
              })
              isServed(created)
              if (created.status !== 200) continue
              const run = yield* call("GET", `${runsPath}/${created.json.id}`, { baseUrl })
              expect(run.json.status).toBe("completed")
              // the words written are bounded, and so is the answer
              expect(run.json.result.split(/\s+/u).length).toBeLessThanOrEqual(maxWrittenWords + 100)
              expect(run.text.length).toBeLessThanOrEqual(256 * 1024)
            }
          })).pipe(Effect.provide(clientLayer)),
      60_000
    )

    it.effect(
      "runs past maxRuns evict the oldest first (then 404); past maxRunsSize too",
      () =>
        served({ maxRuns: 2, runStepDuration: 0 }, (baseUrl) =>
          Effect.gen(function*() {
            const ids: Array<string> = []
            for (const input of ["one", "two", "three"]) {
              ids.push((yield* call("POST", runsPath, { baseUrl, body: { input } })).json.id)
            }
            const statuses = yield* Effect.forEach(ids, (id) => call("GET", `${runsPath}/${id}`, { baseUrl }))
            expect(statuses.map((a) => a.status)).toEqual([404, 200, 200])
            expect(statuses[0]!.json).toEqual({ detail: `Run ${ids[0]} not found` })
          })).pipe(
            Effect.andThen(served({ maxRunsSize: 6000, runStepDuration: 0 }, (baseUrl) =>
              Effect.gen(function*() {
                // each run keeps its requirements' descriptions (about 2,000 characters here): two fit, not three
                const description = `Mention ${"x".repeat(2000)}.`
                const body = { input: "x", requirements: [{ name: "r", description }] }
                const ids: Array<string> = []
                for (let i = 0; i < 4; i++) {
                  const created = yield* call("POST", runsPath, { baseUrl, body })
                  expect(created.status, created.text).toBe(200)
                  ids.push(created.json.id)
                }
                const statuses = yield* Effect.forEach(ids, (id) => call("GET", `${runsPath}/${id}`, { baseUrl }))
                expect(statuses.map((a) => a.status)).toEqual([404, 404, 200, 200])
              }))),
            Effect.provide(clientLayer)
          ),
      60_000
    )

    it.effect(
      "assistants past maxAssistants evict the oldest; one over maxAssistantSize is a 413, on create and on update",
      () =>
        served({ maxAssistants: 3, maxAssistantSize: 2048 }, (baseUrl) =>
          Effect.gen(function*() {
            const ids: Array<string> = []
            for (let i = 0; i < 5; i++) {
              ids.push((yield* call("POST", assistantsPath, { baseUrl, body: { name: `a${i}` } })).json.id)
            }
            const list = yield* call("GET", assistantsPath, { baseUrl })
            expect(list.json.results.map((a: { name: string }) => a.name)).toEqual(["a2", "a3", "a4"])
            expect((yield* call("GET", `${assistantsPath}/${ids[0]}`, { baseUrl })).status).toBe(404)
            // an update keeps an assistant's place: the oldest created is still evicted first
            yield* call("PATCH", `${assistantsPath}/${ids[2]}`, { baseUrl, body: { description: "touched" } })
            yield* call("POST", assistantsPath, { baseUrl, body: { name: "a5" } })
            const after = yield* call("GET", assistantsPath, { baseUrl })
            expect(after.json.results.map((a: { name: string }) => a.name)).toEqual(["a3", "a4", "a5"])

            const tooLarge = yield* call("POST", assistantsPath, {
              baseUrl,
              body: { name: "big", system_prompt: "x".repeat(3000) }
            })
            expect(tooLarge.status).toBe(413)
            expect(tooLarge.json.detail).toMatch(
              /^An assistant may hold at most 2048 characters of JSON; this one would hold \d+\./
            )
            const kept = ids[4]!
            const grown = yield* call("PATCH", `${assistantsPath}/${kept}`, {
              baseUrl,
              body: { system_prompt: "y".repeat(3000) }
            })
            expect(grown.status).toBe(413)
            const unchanged = yield* call("GET", `${assistantsPath}/${kept}`, { baseUrl })
            expect(unchanged.json.system_prompt).toBeUndefined()
            expect((yield* call("GET", assistantsPath, { baseUrl })).json.results).toHaveLength(3)
          })).pipe(Effect.provide(clientLayer)),
      60_000
    )

    it.effect(
      "a listing is bounded by maxAssistants × maxAssistantSize, whatever was created",
      () =>
        served({ maxAssistants: 4, maxAssistantSize: 1024 }, (baseUrl) =>
          Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(
                fc.array(
                  fc.record({ name: fc.string({ minLength: 1 }), system_prompt: fc.string({ maxLength: 1500 }) }),
                  {
                    minLength: 1,
                    maxLength: 6
                  }
                ),
                (assistants) =>
                  Effect.runPromise(Effect.provide(
                    Effect.gen(function*() {
                      for (const body of assistants) isServed(yield* call("POST", assistantsPath, { baseUrl, body }))
                      const list = yield* call("GET", assistantsPath, { baseUrl })
                      expect(list.status).toBe(200)
                      expect(list.json.results.length).toBeLessThanOrEqual(4)
                      expect(list.text.length).toBeLessThanOrEqual(4 * 1024 + "{\"results\":[]}".length + 3)
                    }),
                    clientLayer
                  ))
              ),
              { numRuns: 30 }
            )
          )).pipe(Effect.provide(clientLayer)),
      60_000
    )

    it.effect(
      "no text it writes holds a lone surrogate: cuts, stops, pieces and results",
      () =>
        served({ runStepDuration: 0 }, (baseUrl) =>
          Effect.gen(function*() {
            const long = "a".repeat(238) + "😀😀"
            const run = yield* call("POST", runsPath, { baseUrl, body: { input: long } })
            const result = (yield* call("GET", `${runsPath}/${run.json.id}`, { baseUrl })).json.result as string
            expect(isWellFormed(result), JSON.stringify(result)).toBe(true)
            expect(result).toContain("a".repeat(200))
            const chat = yield* call("POST", chatPath, {
              baseUrl,
              body: { model: "fpmodel-mini", messages: [{ role: "user", content: long }] }
            })
            expect(isWellFormed(chat.json.choices[0].message.content)).toBe(true)
            // a stop sequence that is half of a pair does not cut the pair
            const stopped = yield* call("POST", chatPath, {
              baseUrl,
              body: { model: "fpmodel-mini", messages: [{ role: "user", content: "x😀y" }], stop: ["\ude00"] }
            })
            expect(isWellFormed(stopped.json.choices[0].message.content)).toBe(true)
            expect(stopped.json.choices[0].message.content).toContain("x😀y")
            // a 422 quoting a value cuts it between code points: here the cut falls inside the second emoji
            const invalid = yield* call("POST", chatPath, {
              baseUrl,
              body: {
                model: "fpmodel-mini",
                messages: [{ role: "user", content: "x" }],
                temperature: `${"a".repeat(57)}😀😀`
              }
            })
            expect(invalid.status).toBe(422)
            const message = invalid.json.detail[0].msg as string
            expect(isWellFormed(message), JSON.stringify(message)).toBe(true)
            expect(message).toContain(`${"a".repeat(57)}😀…`)
          })).pipe(Effect.provide(clientLayer)),
      60_000
    )

    it.effect(
      "streamed tool-call arguments come in pieces of whole code points",
      () =>
        served(
          { model: [{ toolCalls: [{ name: "f", arguments: "😀".repeat(40) }] }] },
          (baseUrl) =>
            Effect.gen(function*() {
              const answer = yield* call("POST", chatPath, {
                baseUrl,
                body: { model: "fpmodel-mini", messages: [{ role: "user", content: "x" }], stream: true }
              })
              const pieces = events(answer.text).filter((data) => data !== "[DONE]").flatMap((data) =>
                JSON.parse(data).choices[0].delta.tool_calls?.map((c: any) => c.function.arguments ?? "") ?? []
              ) as Array<string>
              expect(pieces.join("")).toBe("😀".repeat(40))
              for (const piece of pieces) expect(isWellFormed(piece)).toBe(true)
            })
        ).pipe(Effect.provide(clientLayer)),
      60_000
    )
  })
}

describe("no text the service writes holds a lone surrogate (property, over a socket)", () => {
  const astral = fc.array(fc.constantFrom("a", " ", "😀", "𝄞", "é", ".", "\n", "word"), { maxLength: 400 }).map((
    parts
  ) => parts.join(""))
  const stop = fc.oneof(fc.constantFrom("\ud83d", "\ude00", "😀", "a", ". ", "\udd1e"), astral)

  it.effect(
    "chat (whole and streamed, with stop and max_tokens) and runs",
    () =>
      served({ runStepDuration: 0 }, (baseUrl) =>
        Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              astral,
              fc.option(fc.array(stop, { minLength: 1, maxLength: 4 }), { nil: undefined }),
              fc.option(fc.integer({ min: 1, max: 80 }), { nil: undefined }),
              fc.boolean(),
              (content, stops, maxTokens, stream) =>
                Effect.runPromise(Effect.provide(
                  Effect.gen(function*() {
                    const chat = yield* call("POST", chatPath, {
                      baseUrl,
                      body: {
                        model: "fpmodel-mini",
                        messages: [{ role: "user", content }],
                        ...(stops === undefined ? {} : { stop: stops }),
                        ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
                        stream
                      }
                    })
                    expect(chat.status, chat.text.slice(0, 300)).toBe(200)
                    const texts: Array<string> = stream
                      ? events(chat.text).filter((d) => d !== "[DONE]").map((d) =>
                        JSON.parse(d).choices[0].delta.content ?? ""
                      )
                      : [chat.json.choices[0].message.content]
                    for (const text of texts) expect(isWellFormed(text), JSON.stringify(text)).toBe(true)
                    const run = yield* call("POST", runsPath, {
                      baseUrl,
                      body: { input: content, requirements: [{ name: "r", description: "At most 5 words." }] }
                    })
                    const done = yield* call("GET", `${runsPath}/${run.json.id}`, { baseUrl })
                    expect(isWellFormed(done.json.result), JSON.stringify(done.json.result)).toBe(true)
                  }),
                  FetchHttpClient.layer
                ))
            ),
            { numRuns: 100 }
          )
        )).pipe(Effect.provide(FetchHttpClient.layer)),
    120_000
  )
})

describe("other bounds (in memory)", () => {
  it.effect("a run listing 60,000 search URLs gets each scope once", () =>
    Effect.gen(function*() {
      const urls = Array.from({ length: 60_000 }, (_, i) => `site${i % 30_000}.io`)
      const created = yield* call("POST", runsPath, {
        body: { input: "x", tools: [{ type: "web_search", urls }], include: ["data_sources"] }
      })
      expect(created.status).toBe(200)
      const run = yield* call("GET", `${runsPath}/${created.json.id}`)
      const web = run.json.data_sources.web_search as Array<{ url: string }>
      expect(web).toHaveLength(30_000)
      expect(web[1]).toEqual({
        url: "https://www.site1.io/",
        text: "Pages under https://www.site1.io/ about \"x\"",
        score: 0.5
      })
    }).pipe(Effect.provide(Reference.layer({ runStepDuration: 0 }))), 60_000)

  it.effect(
    "rate limiting keeps the windows of at most 10,000 keys: past them the oldest is forgotten",
    () =>
      Effect.gen(function*() {
        const retrieve = (key: string) => call("GET", `${runsPath}/none`, { key })
        expect((yield* retrieve("first")).status).toBe(404)
        expect((yield* retrieve("first")).status).toBe(429)
        for (let i = 0; i < 10_000; i++) yield* retrieve(`key-${i}`)
        // the first key's window was the oldest: forgotten, so it starts a new one
        expect((yield* retrieve("first")).status).toBe(404)
        expect((yield* retrieve("key-9999")).status).toBe(429)
      }).pipe(Effect.provide(Reference.layer({ rateLimit: { limit: 1, window: "1 hour" } }))),
    60_000
  )
})

describe("default store limits (in memory)", () => {
  it.effect("500 assistants at most by default: the 501st evicts the first", () =>
    Effect.gen(function*() {
      const first = (yield* call("POST", assistantsPath, { body: { name: "first" } })).json.id
      for (let i = 1; i <= defaultAssistantStoreLimits.maxAssistants; i++) {
        yield* call("POST", assistantsPath, { body: { name: `n${i}` } })
      }
      expect((yield* call("GET", `${assistantsPath}/${first}`)).status).toBe(404)
      const list = yield* call("GET", assistantsPath)
      expect(list.json.results).toHaveLength(defaultAssistantStoreLimits.maxAssistants)
    }).pipe(Effect.provide(Reference.layer())), 60_000)
})
