import { decodeOutcome, describe, encodedArbitrary, expect, isSuccess, it, toOutcome } from "@studio-effect/line"
import { decodeCompletion } from "@studio-effect/line/src/internal/schema/completion.js"
import * as fc from "fast-check"
import { setImmediate as nextTurn } from "node:timers/promises"
import { ChatSchema } from "studio-effect"

const decodeWithSchema = decodeOutcome(ChatSchema.ChatCompletion)

/** Completions as the service may send them: valid ones, with fields we do not know, and wrong ones. */
const encodedCompletion = encodedArbitrary(ChatSchema.ChatCompletion, "completion")
const extraFields = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
const withExtras = fc.tuple(encodedCompletion, extraFields, extraFields, extraFields).map((
  [completion, top, choice, message]
) => ({
  ...top,
  ...completion,
  choices: completion.choices.map((c) => ({ ...choice, ...c, message: { ...message, ...c.message } }))
}))
const wrongOr = <A>(arbitrary: fc.Arbitrary<A>) =>
  fc.oneof(arbitrary, fc.constant(null), fc.integer(), fc.string(), fc.boolean(), fc.constant([]))
const usualShape = fc.record({
  id: wrongOr(fc.string()),
  choices: fc.array(
    fc.record({
      index: wrongOr(fc.integer()),
      message: fc.record({
        role: wrongOr(fc.constantFrom("assistant", "user")),
        content: wrongOr(fc.string()),
        tool_calls: wrongOr(fc.array(
          fc.record({
            id: wrongOr(fc.string()),
            type: wrongOr(fc.constant("function")),
            function: wrongOr(fc.record({ name: wrongOr(fc.string()), arguments: wrongOr(fc.string()) }))
          }, { requiredKeys: [] }),
          { maxLength: 2 }
        ))
      }, { requiredKeys: [] }),
      finish_reason: wrongOr(fc.constantFrom("stop", "length", "tool_calls", "other")),
      logprobs: fc.jsonValue({ maxDepth: 1 })
    }, { requiredKeys: [] }),
    { maxLength: 3 }
  ),
  usage: wrongOr(fc.record({
    prompt_tokens: wrongOr(fc.integer()),
    completion_tokens: fc.integer(),
    total_tokens: fc.integer()
  }))
}, { requiredKeys: [] })
const anyCompletion = fc.oneof(encodedCompletion, withExtras, usualShape, fc.jsonValue({ maxDepth: 3 }))

describe("completion decoding", () => {
  it("gives exactly what the ChatCompletion schema gives, for any answer", () =>
    fc.assert(
      fc.asyncProperty(anyCompletion, async (value) => {
        // a turn of the event loop in each run: a process that never turns cannot answer vitest's runner
        await nextTurn()
        const text = JSON.stringify(value)
        // the schema cannot keep a field named `__proto__` (assigning it sets a prototype); the fast path keeps it
        fc.pre(!text.includes("\"__proto__\""))
        const json = JSON.parse(text)
        const expected = decodeWithSchema(json)
        const actual = toOutcome(decodeCompletion(json))
        expect(actual._tag).toBe(expected._tag)
        if (isSuccess(expected) && isSuccess(actual)) {
          expect(actual.success).toStrictEqual(expected.success)
        }
      }),
      { numRuns: 3_000 }
    ), 120_000)

  it("the service's usual answers, with and without tool calls, take the fast path (no schema error path)", () => {
    const usual = {
      id: "chat-1",
      choices: [{
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }]
        },
        logprobs: null,
        finish_reason: "tool_calls"
      }],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }
    }
    const decoded = toOutcome(decodeCompletion(usual))
    expect(decoded).toStrictEqual(decodeWithSchema(usual))
  })
})
