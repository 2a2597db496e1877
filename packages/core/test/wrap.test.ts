/**
 * Help laid out for a terminal's width: broken between words only, every word kept in order, lines that fit
 * left alone.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { wrap } from "../src/text/wrap.js"

const word = fc.stringMatching(/^[a-zA-Z0-9=.,;()<>|-]{1,14}$/)
const line = fc.tuple(
  fc.nat({ max: 6 }),
  fc.array(word, { minLength: 1, maxLength: 30 }),
  fc.boolean(),
  fc.array(word, { maxLength: 30 })
).map(([indent, first, isRow, rest]) =>
  " ".repeat(indent) + first.slice(0, isRow ? 2 : first.length).join(" ") + (isRow ? "    " : " ") + rest.join(" ")
)
const text = fc.array(line, { minLength: 1, maxLength: 8 }).map((lines) => lines.join("\n"))
const width = fc.integer({ min: 20, max: 200 })
const words = (text: string) => text.split(/\s+/).filter((word) => word !== "")

describe("wrap", () => {
  it("keeps every word, in order, and never cuts one", () => {
    fc.assert(fc.property(text, width, (text, width) => {
      expect(words(wrap(text, width))).toEqual(words(text))
    }))
  })

  it("fits each line in the width, but for a word longer than the room left for it", () => {
    fc.assert(fc.property(text, width, (text, width) => {
      for (const out of wrap(text, width).split("\n")) {
        if (out.length > width) expect(words(out)).toHaveLength(1)
      }
    }))
  })

  it("leaves text that fits as it is, and is stable", () => {
    fc.assert(fc.property(text, width, (text, width) => {
      const wrapped = wrap(text, width)
      expect(wrap(wrapped, width)).toBe(wrapped)
      if (text.split("\n").every((line) => line.length <= width)) expect(wrapped).toBe(text)
    }))
  })

  it("continues a row under its second column, and measures no column for colour", () => {
    expect(wrap("  --reference    Use the service embedded in memory", 40)).toBe(
      "  --reference    Use the service\n                 embedded in memory"
    )
    const bold = "\x1b[1m--json\x1b[0m"
    expect(wrap(`${bold}  Print the whole answer`, 30)).toBe(`${bold}  Print the whole answer`)
  })
})
