/**
 * The size of text as JSON, counted before it is written: it is what `JSON.stringify` writes (escapes
 * included) in UTF-8, and a text joined within a bound is the longest start of the whole that fits.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { joinWithin, jsonBytes, jsonTextBytes } from "../../src/reference/library/answerBytes.js"

const utf8 = (text: string) => new TextEncoder().encode(text).length
/** Any text: control characters, quotes, backslashes, every plane, lone surrogates. */
const anyText = fc.string({
  unit: fc.oneof(fc.constantFrom("\u0001", "\n", "\"", "\\", "\u2028"), fc.fullUnicode(), fc.char16bits())
})

describe("the JSON size of a search's answer", () => {
  it("a text takes inside a JSON string what JSON.stringify writes of it, in UTF-8", () =>
    fc.assert(fc.property(anyText, (text) => {
      expect(jsonTextBytes(text)).toBe(utf8(JSON.stringify(text)) - 2)
      expect(jsonBytes({ text })).toBe(utf8(JSON.stringify({ text })))
    })))

  it("pieces joined within a bound fit it, start the whole text, and are cut only when the whole does not fit", () =>
    fc.assert(fc.property(fc.array(anyText, { maxLength: 6 }), fc.integer({ min: 0, max: 120 }), (pieces, maxBytes) => {
      const whole = pieces.join("\n\n")
      const bounded = joinWithin(pieces, "\n\n", maxBytes)
      expect(bounded.bytes).toBe(jsonTextBytes(bounded.text))
      expect(bounded.bytes).toBeLessThanOrEqual(maxBytes)
      expect(whole.startsWith(bounded.text)).toBe(true)
      expect(bounded.cut).toBe(jsonTextBytes(whole) > maxBytes)
      if (!bounded.cut) expect(bounded.text).toBe(whole)
    })))
})
