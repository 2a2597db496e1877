/**
 * Text from the service shown on a terminal: no control character it would obey gets through, and nothing
 * else changes.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { visibleControls } from "../src/text/visibleControls.js"

/** Text rich in controls: terminal sequences (OSC 52, the window title, clear screen), C1 codes, tabs, lines. */
const hostile = fc.array(
  fc.oneof(
    fc.constantFrom("\x1b]52;c;aGVsbG8=\x07", "\x1b]0;owned\x07", "\x1b[2J", "\x9b31m", "\r", "\t", "\n", "\x7f"),
    fc.string({ unit: "binary", maxLength: 6 })
  ),
  { maxLength: 40 }
).map((parts) => parts.join(""))

const obeyed = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/

describe("visibleControls", () => {
  it("leaves no control character but tab and line feed", () => {
    fc.assert(fc.property(hostile, (text) => {
      expect(obeyed.test(visibleControls(text))).toBe(false)
    }))
  })

  it("keeps lines and tabs, and writes each other control in four characters", () => {
    fc.assert(fc.property(hostile, (text) => {
      const shown = visibleControls(text)
      expect(shown.split("\n").length).toBe(text.split("\n").length)
      expect(shown.split("\t").length).toBe(text.split("\t").length)
      expect(shown.length).toBe(text.length + 3 * (text.match(new RegExp(obeyed.source, "g"))?.length ?? 0))
    }))
  })

  it("writes each control as its \\xHH escape, and text without controls as it is", () => {
    expect(visibleControls("\x1b]52;c;aGk=\x07 done")).toBe("\\x1b]52;c;aGk=\\x07 done")
    expect(visibleControls("\x9b2J\r")).toBe("\\x9b2J\\x0d")
    fc.assert(fc.property(fc.string({ unit: "binary" }).filter((text) => !obeyed.test(text)), (text) => {
      expect(visibleControls(text)).toBe(text)
    }))
  })

  it("is stable: what it shows has nothing left to escape", () => {
    fc.assert(fc.property(hostile, (text) => {
      expect(visibleControls(visibleControls(text))).toBe(visibleControls(text))
    }))
  })
})
