import { decodeOutcome, describe, encodedArbitrary, expect, isSuccess, it } from "@studio-effect/line"
import { parseChunk } from "@studio-effect/line/src/internal/schema/chunk.js"
import { EventError } from "@studio-effect/line/src/internal/stream/sse.js"
import * as fc from "fast-check"
import { setImmediate as nextTurn } from "node:timers/promises"
import { ChatSchema } from "studio-effect"

const decodeWithSchema = decodeOutcome(ChatSchema.ChatCompletionChunk)

/** Chunks as the service may send them: valid ones, valid ones with fields we do not know, and wrong ones. */
const encodedChunk = encodedArbitrary(ChatSchema.ChatCompletionChunk, "chunk")
const extraFields = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
const withExtras = fc.tuple(encodedChunk, extraFields, extraFields, extraFields).map(([chunk, top, choice, delta]) => ({
  ...top,
  ...chunk,
  choices: chunk.choices.map((c) => ({ ...choice, ...c, delta: { ...delta, ...c.delta } }))
}))
const usualShape = fc.record({
  id: fc.oneof(fc.string(), fc.integer()),
  choices: fc.array(
    fc.record({
      index: fc.oneof(fc.integer(), fc.string()),
      delta: fc.record(
        {
          role: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
          content: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
          tool_calls: fc.oneof(fc.constant(null), fc.constant([]))
        },
        { requiredKeys: [] }
      ),
      finish_reason: fc.oneof(fc.string(), fc.constant(null), fc.boolean()),
      logprobs: fc.jsonValue({ maxDepth: 1 })
    }, { requiredKeys: ["delta"] }),
    { maxLength: 3 }
  ),
  usage: fc.oneof(
    fc.constant(null),
    fc.record({
      prompt_tokens: fc.integer(),
      completion_tokens: fc.integer(),
      total_tokens: fc.oneof(fc.integer(), fc.string())
    })
  )
}, { requiredKeys: [] })
const anyChunk = fc.oneof(encodedChunk, withExtras, usualShape, fc.jsonValue({ maxDepth: 3 }))

describe("chunk decoding", () => {
  it("gives exactly what the ChatCompletionChunk schema gives, for any event", () =>
    fc.assert(
      fc.asyncProperty(anyChunk, async (value) => {
        // a turn of the event loop in each run: a process that never turns cannot answer vitest's runner
        await nextTurn()
        const data = JSON.stringify(value)
        // the schema cannot keep a field named `__proto__` (assigning it sets a prototype); the fast path keeps it
        fc.pre(!data.includes("\"__proto__\""))
        const expected = decodeWithSchema(JSON.parse(data))
        const actual = parseChunk(data)
        if (isSuccess(expected)) {
          expect(actual).not.toBeInstanceOf(EventError)
          expect(actual).toStrictEqual(expected.success)
        } else {
          expect(actual).toBeInstanceOf(EventError)
          if (actual instanceof EventError) expect(actual.error._tag).toBe("DecodeError")
        }
      }),
      { numRuns: 2_000 }
    ), 120_000)

  it("an event that is not JSON is a DecodeError", () => {
    const result = parseChunk("{\"id\":")
    expect(result).toBeInstanceOf(EventError)
  })
})
