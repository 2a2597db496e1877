/**
 * What is kept to keep the event path's hidden classes: blank copies, which hold the shape of what they copy
 * (its keys, their order and nesting) and none of its data; and the usual chunk's fast path, which hands
 * the caller the chunk it parsed, completed, whatever it kept.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { usualChunk } from "../src/chat/usualChunk.js"
import { blankCopy } from "../src/engine/hiddenClasses.js"

/** The keys of `value` at every level, in order, and the kind of each leaf. */
const shapeOf = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(shapeOf)
    : typeof value === "object" && value !== null
    ? Object.entries(value).map(([key, inner]) => [key, shapeOf(inner)])
    : value === null
    ? "null"
    : typeof value

/** Every string and number of `value`, at every level. */
const dataOf = (value: unknown): Array<unknown> =>
  Array.isArray(value)
    ? value.flatMap(dataOf)
    : typeof value === "object" && value !== null
    ? Object.values(value).flatMap(dataOf)
    : typeof value === "string" || typeof value === "number"
    ? [value]
    : []

const plainObject = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })

describe("blankCopy", () => {
  it("keeps the shape, keys in order at every level, and no string or number of the original", () => {
    fc.assert(fc.property(plainObject, (value) => {
      const copy = blankCopy(value)
      expect(copy).not.toBe(value)
      expect(shapeOf(copy)).toEqual(shapeOf(JSON.parse(JSON.stringify(value))))
      for (const leaf of dataOf(copy)) expect(leaf === "" || leaf === 0).toBe(true)
    }))
  })
})

describe("usualChunk", () => {
  const chunk = (delta: object, extra: object = {}) =>
    JSON.parse(JSON.stringify({ id: "chat-1", choices: [{ index: 0, delta, logprobs: null }], ...extra }))

  it("completes a usual chunk in place and hands back the same object, for each kind and again", () => {
    for (let round = 0; round < 2; round++) {
      const opening = chunk({ role: "assistant", content: "" })
      const content = chunk({ content: "Hello" })
      const closing = chunk({ content: "" }, { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } })
      for (const json of [opening, content, closing]) expect(usualChunk(json, JSON.stringify(json).length)).toBe(json)
      expect(content).toEqual({
        id: "chat-1",
        choices: [{ index: 0, delta: { content: "Hello" }, logprobs: null, finish_reason: null }],
        usage: null
      })
      expect(closing.usage).toEqual({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })
    }
  })

  it("leaves any other value to the schema", () => {
    for (
      const json of [
        null,
        "text",
        [],
        { id: 1, choices: [] },
        chunk({ tool_calls: [{ index: 0 }] }),
        chunk({ content: 42 }),
        chunk({ content: "a" }, { usage: { prompt_tokens: "1" } })
      ]
    ) {
      expect(usualChunk(json, 64)).toBeUndefined()
    }
  })
})
