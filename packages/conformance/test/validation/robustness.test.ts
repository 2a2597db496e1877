/**
 * The validators never crash: any value gives either a decoded request or `ValidationError` issues, and
 * fields the interface does not list are kept rather than rejected.
 */
import { describe, Effect, Exit, expect, isFailure, it, outcome } from "@studio-effect/line"
import { validateRequest } from "@studio-effect/line/src/internal/schema/validate.js"
import * as fc from "fast-check"
import { ChatSchema, MaestroSchema, StudioError } from "studio-effect"
import { extraFields, validChatRequest, validRunRequest } from "./arbitraries.js"
import { expectActionable, expectValid, wireForm } from "./support.js"

const chatFieldNames = [
  "model",
  "messages",
  "tools",
  "documents",
  "response_format",
  "max_tokens",
  "temperature",
  "top_p",
  "stop",
  "n",
  "stream"
]
const runFieldNames = [
  "input",
  "system_prompt",
  "requirements",
  "tools",
  "models",
  "budget",
  "include",
  "response_language",
  "tool_resources"
]

/** Requests with the right field names and anything at all as values. */
const anythingUnder = (names: ReadonlyArray<string>) =>
  fc.dictionary(fc.constantFrom(...names), fc.oneof(fc.anything(), fc.jsonValue()), { maxKeys: names.length })

/** A valid request with one field's value replaced by anything. */
const withOneFieldReplaced = <A extends object>(valid: fc.Arbitrary<A>, names: ReadonlyArray<string>) =>
  fc.tuple(valid, fc.constantFrom(...names), fc.oneof(fc.anything(), fc.jsonValue())).map(
    ([request, name, value]) => ({ ...request, [name]: value })
  )

const schemas = [
  {
    name: "ChatRequest",
    schema: ChatSchema.ChatRequest as any,
    fields: chatFieldNames,
    valid: validChatRequest as any
  },
  { name: "RunRequest", schema: MaestroSchema.RunRequest as any, fields: runFieldNames, valid: validRunRequest as any }
] as const

describe.each(schemas)("$name never crashes", ({ fields, schema, valid }) => {
  const inputs = fc.oneof(
    fc.anything(),
    fc.jsonValue(),
    anythingUnder(fields),
    withOneFieldReplaced(valid, fields)
  )

  it("any value gives a decoded request or actionable issues, never an exception or a defect", () => {
    fc.assert(
      fc.property(inputs, (input) => {
        // A defect or an exception would make the exit a failure; a broken rule is a `Failure` result.
        const exit = Effect.runSyncExit(outcome(validateRequest("test", schema, input)))
        expect(Exit.isSuccess(exit)).toBe(true)
        if (Exit.isSuccess(exit) && isFailure(exit.value)) {
          const error = exit.value.failure
          expect(error).toBeInstanceOf(StudioError.ValidationError)
          expect(error.issues.length).toBeGreaterThan(0)
          error.issues.forEach(expectActionable)
          expect(error.message).toMatch(/^Invalid test request:/)
        }
      }),
      { numRuns: 1000 }
    )
  })

  it("a value that cannot be turned into text (its toString or valueOf not a function) is an issue, not a defect", () => {
    const unreadable = [{ toString: 0 }, { valueOf: null, toString: {} }, Object.create(null)]
    for (const value of unreadable) {
      const turns = [{ role: value, content: "x" }]
      const input = fields.includes("messages") ? { model: "fpmodel-mini", messages: turns } : { input: turns }
      const exit = Effect.runSyncExit(outcome(validateRequest("test", schema, input)))
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(Exit.isSuccess(exit) && isFailure(exit.value)).toBe(true)
    }
  })

  it("fields the interface does not list are kept at the top level", () => {
    fc.assert(
      fc.property(valid, extraFields(fields), (request: any, extra) => {
        const withExtra = { ...request, ...extra }
        expect(expectValid(schema, withExtra)).toEqual({ ...wireForm(request) as object, ...extra })
      }),
      { numRuns: 200 }
    )
  })
})

describe("unknown nested fields", () => {
  it("an unknown field on a chat message or tool is kept", () => {
    const request = {
      model: "fpmodel-mini",
      messages: [{ role: "user", content: "hi", name: "ada" }],
      tools: [{ type: "function", function: { name: "f", description: "d", strict: true } }]
    }
    expect(expectValid(ChatSchema.ChatRequest, request)).toEqual(request)
  })

  it("an unknown field on a run tool or requirement is kept", () => {
    const request = {
      requirements: [{ name: "n", description: "d", weight: 2 }],
      tools: [{ type: "web_search", urls: ["example.com"], max_results: 3 }]
    }
    expect(expectValid(MaestroSchema.RunRequest, request)).toEqual(request)
  })
})
