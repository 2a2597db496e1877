/**
 * Adding chunks up: the completion they make, and a size that follows what is held (so a bound on it is a
 * bound on the accumulator's memory).
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CompletionAccumulator, entrySize } from "../src/chat/CompletionAccumulator.js"
import type { ChatCompletionChunk } from "../src/wire/chat.js"

const piece = fc.record({
  index: fc.integer({ min: 0, max: 2 }),
  content: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
  call: fc.option(
    fc.record({
      index: fc.integer({ min: 0, max: 1 }),
      name: fc.string({ maxLength: 4 }),
      args: fc.string({ maxLength: 8 })
    }),
    { nil: undefined }
  )
})

type Piece = typeof piece extends fc.Arbitrary<infer T> ? T : never

const chunkOf = (p: Piece): ChatCompletionChunk => ({
  id: "c-1",
  choices: [{
    index: p.index,
    delta: {
      ...(p.content === undefined ? {} : { content: p.content }),
      ...(p.call === undefined ? {} : {
        tool_calls: [{ index: p.call.index, id: "t", function: { name: p.call.name, arguments: p.call.args } }]
      })
    },
    finish_reason: null
  }],
  usage: null
})

describe("CompletionAccumulator", () => {
  it("property: content and arguments are concatenated; size is their characters and 64 per entry", () =>
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const accumulator = new CompletionAccumulator()
        for (const p of pieces) accumulator.add(chunkOf(p))
        const completion = accumulator.completion()
        let expected = pieces.length === 0 ? 0 : "c-1".length
        const choices = new Set<number>()
        const calls = new Set<string>()
        for (const p of pieces) {
          if (!choices.has(p.index)) expected += entrySize
          choices.add(p.index)
          expected += p.content?.length ?? 0
          if (p.call !== undefined) {
            const key = `${p.index}/${p.call.index}`
            if (!calls.has(key)) expected += entrySize + "t".length + "function".length
            calls.add(key)
            expected += p.call.name.length + p.call.args.length
          }
        }
        expect(accumulator.size).toBe(expected)
        for (const choice of completion.choices) {
          const mine = pieces.filter((p) => p.index === choice.index)
          const contents = mine.filter((p) => p.content !== undefined)
          expect(choice.message.content).toBe(contents.length === 0 ? null : contents.map((p) => p.content).join(""))
          const callIndexes = [...new Set(mine.flatMap((p) => p.call === undefined ? [] : [p.call.index]))].sort()
          for (const [i, call] of (choice.message.tool_calls ?? []).entries()) {
            const parts = mine.filter((p) => p.call !== undefined && p.call.index === callIndexes[i])
            expect(call.function.arguments).toBe(parts.map((p) => p.call!.args).join(""))
          }
        }
        expect(completion.choices.map((choice) => choice.index)).toEqual([...choices].sort((a, b) => a - b))
      }),
      { numRuns: 300 }
    ))
})
