/**
 * Text cut by code points: no cut, piece or stop ever leaves half of a surrogate pair.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as CodePoints from "../src/text/codePoints.js"
import { isWellFormed } from "./fixtures/text.js"

/** Well-formed text rich in astral code points (emoji and the like), each made of a surrogate pair. */
const text = fc.array(
  fc.oneof(fc.constantFrom("a", " ", "😀", "𝄞", "é", "\u{10FFFF}"), fc.string({ unit: "binary", maxLength: 4 })),
  { maxLength: 60 }
).map((parts) => parts.join("")).filter((s) => isWellFormed(s))

const codePoints = (s: string): number => [...s].length

describe("CodePoints", () => {
  it("take keeps whole code points, as many as asked", () => {
    fc.assert(fc.property(text, fc.integer({ min: -2, max: 80 }), (s, n) => {
      const kept = CodePoints.take(s, n)
      expect(isWellFormed(kept)).toBe(true)
      expect(s.startsWith(kept)).toBe(true)
      expect(codePoints(kept)).toBe(Math.min(Math.max(0, n), codePoints(s)))
    }))
  })

  it("length counts code points, no further than asked", () => {
    fc.assert(fc.property(text, fc.integer({ min: 0, max: 80 }), (s, n) => {
      expect(CodePoints.length(s)).toBe(codePoints(s))
      expect(CodePoints.length(s, n)).toBe(Math.min(n, codePoints(s)))
    }))
  })

  it("clip gives at most max code points, well formed", () => {
    fc.assert(fc.property(text, fc.integer({ min: 1, max: 80 }), (s, max) => {
      const clipped = CodePoints.clip(s, max)
      expect(isWellFormed(clipped)).toBe(true)
      expect(codePoints(clipped)).toBeLessThanOrEqual(max)
      if (codePoints(s) <= max) expect(clipped).toBe(s)
    }))
    const long = "a".repeat(238) + "😀😀"
    expect(CodePoints.clip(long, 239)).toBe("a".repeat(238) + "…")
    expect(CodePoints.clip(long, 240)).toBe(long)
  })

  it("pieces join back to the text, each well formed and at most size code points", () => {
    fc.assert(fc.property(text, fc.integer({ min: 1, max: 20 }), (s, size) => {
      const pieces = CodePoints.pieces(s, size)
      expect(pieces.join("")).toBe(s)
      for (const piece of pieces) {
        expect(isWellFormed(piece)).toBe(true)
        expect(codePoints(piece)).toBeLessThanOrEqual(size)
      }
    }))
  })

  it("indexOf finds a sequence only on code point boundaries", () => {
    const sequence = fc.oneof(text, fc.constantFrom("\ud83d", "\ude00", "a\ud83d", "\ude00a"))
    fc.assert(fc.property(text, sequence, (s, stop) => {
      const at = CodePoints.indexOf(s, stop)
      if (at === -1) return
      expect(s.startsWith(stop, at)).toBe(true)
      expect(isWellFormed(s.slice(0, at))).toBe(true)
      if (isWellFormed(stop)) expect(at).toBe(s.indexOf(stop))
    }))
    expect(CodePoints.indexOf("x😀", "\ude00")).toBe(-1)
    expect(CodePoints.indexOf("x😀", "\ud83d")).toBe(-1)
  })
})
