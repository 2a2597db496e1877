/**
 * Assistants take requirements in the real service's assistant shape (`id`, `title`, `description`,
 * `type`) as well as a run's (`name`, `description`, `is_mandatory`), on create, on modify and as a run's
 * override, and a run scores them by the documented mapping.
 */
import { decodeOutcome, describe, Effect, expect, Fiber, fork, isSuccess, it, TestClock } from "@studio-effect/line"
import * as fc from "fast-check"
import { Assistants, AssistantSchema, MaestroSchema } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { expectIssuesAt, expectValid } from "../validation/support.js"

const serviceShape = [
  { id: "req-1", title: "Short", description: "At most 40 words", type: "mandatory" },
  { title: "Polite", description: "Friendly in tone", type: "optional" },
  { id: "req-3", description: "Mentions Lisbon" }
]

/** Runs an assistant and polls it to its end on the test clock. */
const runToEnd = (id: string, request: AssistantSchema.AssistantRunRequest) =>
  Effect.gen(function*() {
    const fiber = yield* fork(Assistants.runAndPoll(id, request))
    yield* TestClock.adjust("10 minutes")
    return yield* Fiber.join(fiber)
  })

const scored = (run: { readonly requirements_result?: any }) =>
  run.requirements_result.requirements.map((r: any) => ({ name: r.name, is_mandatory: r.is_mandatory }))

describe("assistant requirements in the service's shape", () => {
  it.effect("create stores them as given; a run scores them as title → name, type mandatory → is_mandatory", () =>
    Effect.gen(function*() {
      const assistant = yield* Assistants.create({ name: "planner", requirements: serviceShape })
      expect(assistant.requirements).toEqual(serviceShape)
      expect((yield* Assistants.retrieve(assistant.id)).requirements).toEqual(serviceShape)
      const run = yield* runToEnd(assistant.id, {
        input: [{ role: "user", content: "Plan a day in Lisbon" }],
        include: ["requirements_result"]
      })
      expect(run.status).toBe("completed")
      expect(scored(run)).toEqual([
        { name: "Short", is_mandatory: true },
        { name: "Polite", is_mandatory: false },
        { name: "req-3", is_mandatory: false }
      ])
    }).pipe(Effect.provide(Reference.layerClient())))

  it.effect("modify takes either shape, and a run's override takes either shape too", () =>
    Effect.gen(function*() {
      const assistant = yield* Assistants.create({
        name: "planner",
        requirements: [{ name: "brief", description: "At most 60 words", is_mandatory: true }]
      })
      const modified = yield* Assistants.update(assistant.id, { requirements: [serviceShape[1]!] })
      expect(modified.requirements).toEqual([serviceShape[1]])
      const input = [{ role: "user" as const, content: "Plan a day in Lisbon" }]
      const stored = yield* runToEnd(assistant.id, { input, include: ["requirements_result"] })
      expect(scored(stored)).toEqual([{ name: "Polite", is_mandatory: false }])
      const serviceOverride = yield* runToEnd(assistant.id, {
        input,
        include: ["requirements_result"],
        requirements: [serviceShape[0]!]
      })
      expect(scored(serviceOverride)).toEqual([{ name: "Short", is_mandatory: true }])
      const runOverride = yield* runToEnd(assistant.id, {
        input,
        include: ["requirements_result"],
        requirements: [{ name: "cited", description: "Names a source", is_mandatory: false }, serviceShape[2]!]
      })
      expect(scored(runOverride)).toEqual([
        { name: "cited", is_mandatory: false },
        { name: "req-3", is_mandatory: false }
      ])
    }).pipe(Effect.provide(Reference.layerClient())))

  it("a requirement is checked by the rules of the shape it has, and reported once", () => {
    const body = (requirements: ReadonlyArray<unknown>) => ({ name: "a", requirements })
    expectIssuesAt(
      AssistantSchema.CreateAssistantRequest,
      body([{}]),
      ["requirements[0].title"],
      /title or a description/
    )
    expectIssuesAt(AssistantSchema.CreateAssistantRequest, body([{ type: "mandatory" }]), ["requirements[0].title"])
    expectIssuesAt(AssistantSchema.CreateAssistantRequest, body([{ name: "", description: "d" }]), [
      "requirements[0].name"
    ])
    expectIssuesAt(
      AssistantSchema.CreateAssistantRequest,
      body([{ title: 5 }]),
      ["requirements[0].title"],
      /expected a string/
    )
    expectIssuesAt(
      AssistantSchema.CreateAssistantRequest,
      body([{ title: "long", description: Array.from({ length: 129 }, () => "word").join(" ") }]),
      ["requirements[0].description"],
      /at most 128 words/
    )
    expectIssuesAt(AssistantSchema.CreateAssistantRequest, body([7]), ["requirements[0]"], /expected an object, got 7/)
    expectIssuesAt(
      AssistantSchema.CreateAssistantRequest,
      body(Array.from({ length: 11 }, (_, i) => ({ title: `t${i}` }))),
      ["requirements"],
      /at most 10/
    )
  })

  it("every valid requirement of either shape maps to a valid run requirement", () => {
    const words = fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 128 }).map((w) => w.join(" "))
    const service = fc.record({
      id: fc.option(fc.string({ maxLength: 10 }), { nil: null }),
      title: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
      description: fc.option(words, { nil: null }),
      type: fc.option(fc.constantFrom("mandatory", "MANDATORY", "optional", "custom"), { nil: undefined })
    }, { requiredKeys: [] })
    const run = fc.record({
      name: fc.string({ minLength: 1, maxLength: 10 }),
      description: words,
      is_mandatory: fc.boolean()
    }, { requiredKeys: ["name", "description"] })
    fc.assert(
      fc.property(fc.array(fc.oneof(service, run), { maxLength: 10 }), (requirements) => {
        const decoded = decodeOutcome(AssistantSchema.AssistantRequirements)(requirements)
        const valid = requirements.every((r) => "name" in r || (r.title ?? "") !== "" || (r.description ?? "") !== "")
        expect(isSuccess(decoded)).toBe(valid)
        if (isSuccess(decoded)) {
          decoded.success.forEach((requirement, index) => {
            const mapped = AssistantSchema.toRunRequirement(requirement, index)
            expectValid(MaestroSchema.Requirement, mapped)
            if (!("name" in requirement)) {
              expect(mapped.is_mandatory).toBe(requirement.type?.toLowerCase() === "mandatory")
              expect(mapped.name).toBe(requirement.title || requirement.id || `requirement ${index + 1}`)
            }
          })
        }
      }),
      { numRuns: 300 }
    )
    expectValid(AssistantSchema.ServiceRequirement, { title: "t", id: null, type: null })
  })
})
