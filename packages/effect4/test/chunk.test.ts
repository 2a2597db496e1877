import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { ChatCompletionChunk } from "../src/ChatSchema.js"
import { parseChunk } from "../src/internal/schema/chunk.js"
import { EventError } from "../src/internal/stream/sse.js"

const decodeWithSchema = Schema.decodeUnknownResult(ChatCompletionChunk)

/** Chunks as the service may send them: valid ones, valid ones with fields we do not know, and wrong ones. */
const encodedChunk = fc.constantFrom(
  ...Effect.runSync(
    Arbitrary.sampleEffect(Arbitrary.schema(Schema.toEncoded(ChatCompletionChunk)), { count: 500, seed: "chunk" })
  )
)
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
      fc.property(anyChunk, (value) => {
        const data = JSON.stringify(value)
        // the schema cannot keep a field named `__proto__` (assigning it sets a prototype); the fast path keeps it
        fc.pre(!data.includes("\"__proto__\""))
        const expected = decodeWithSchema(JSON.parse(data))
        const actual = parseChunk(data)
        if (Result.isSuccess(expected)) {
          expect(actual).not.toBeInstanceOf(EventError)
          expect(actual).toStrictEqual(expected.success)
        } else {
          expect(actual).toBeInstanceOf(EventError)
          if (actual instanceof EventError) expect(actual.error._tag).toBe("DecodeError")
        }
      }),
      { numRuns: 2_000 }
    ))

  it("an event that is not JSON is a DecodeError", () => {
    const result = parseChunk("{\"id\":")
    expect(result).toBeInstanceOf(EventError)
  })
})
