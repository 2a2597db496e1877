/**
 * Well-formed text: a string is well-formed exactly when it has a UTF-8 form (`encodeURIComponent` does not
 * throw), and the first lone surrogate is found where it is.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isWellFormed, loneSurrogateAt } from "../src/text/wellFormed.js"
import { isWellFormed as oracle } from "./fixtures/text.js"

/** Text made of any UTF-16 code units, lone surrogates often among them. */
const anyText = fc.array(
  fc.oneof(fc.constantFrom("a", "😀", "\ud800", "\udfff", "\ud83d", "\ude00"), fc.string({ unit: "binary" })),
  { maxLength: 20 }
).map((parts) => parts.join(""))

const encodes = (text: string): boolean => {
  try {
    encodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

describe("wellFormed", () => {
  it("property: well-formed exactly when the text has a UTF-8 form, as String.prototype.isWellFormed says", () =>
    fc.assert(
      fc.property(anyText, (text) => {
        expect(isWellFormed(text)).toBe(encodes(text))
        expect(isWellFormed(text)).toBe(oracle(text))
      }),
      { numRuns: 2000 }
    ))

  it("property: loneSurrogateAt names the first lone surrogate; the text before it is well-formed", () =>
    fc.assert(
      fc.property(anyText, (text) => {
        const at = loneSurrogateAt(text)
        if (at === -1) {
          expect(oracle(text)).toBe(true)
        } else {
          expect(oracle(text.slice(0, at))).toBe(true)
          expect(oracle(text.slice(at, at + 1))).toBe(false)
        }
      }),
      { numRuns: 2000 }
    ))

  it("pairs are whole; halves alone, reversed or at either end are not", () => {
    expect(isWellFormed("run-😀-1")).toBe(true)
    expect(loneSurrogateAt("ab\ud800")).toBe(2)
    expect(loneSurrogateAt("\udc00ab")).toBe(0)
    expect(loneSurrogateAt("a\ude00\ud83d")).toBe(1)
  })
})
