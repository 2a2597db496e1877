/**
 * The line printed for a failure: always one line, safe on a terminal, naming the error's tag and keeping every
 * line of its message in order.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { failureLine } from "../src/failure/failureLine.js"

/** A message of several lines, rich in what breaks a line or a terminal: CR, LF, CR LF, U+2028, ESC, C1. */
const message = fc.array(
  fc.oneof(
    fc.constantFrom("\n", "\r", "\r\n", "\u2028", "\u2029", "\n  - ", ":\n", "\x1b[2J", "\x9b31m", "\t", " "),
    fc.string({ unit: "binary", maxLength: 8 })
  ),
  { maxLength: 30 }
).map((parts) => parts.join(""))

const breaksOrControls = /[\n\r\u2028\u2029\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u

describe("failureLine", () => {
  it("is one line with no control a terminal obeys, whatever the message", () => {
    fc.assert(fc.property(message, fc.option(fc.string({ maxLength: 12 })), (text, tag) => {
      const line = failureLine(tag === null ? { message: text } : { _tag: tag, message: text })
      expect(breaksOrControls.test(line)).toBe(false)
      expect(line).toBe(line.trim())
    }))
  })

  it("keeps each non-blank line of the message, in order", () => {
    const line = fc.string({ maxLength: 12 }).filter((text) => !breaksOrControls.test(text) && text.trim() !== "")
    fc.assert(fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
      const shown = failureLine(new Error(lines.join("\n")))
      let from = 0
      for (const part of lines) {
        const at = shown.indexOf(part.trim().replace(/^- /u, "").trimStart(), from)
        expect(at).toBeGreaterThanOrEqual(from)
        from = at
      }
    }))
  })

  it("names a tagged error's tag before its message, and gives another error's message alone", () => {
    const tagged = Object.assign(new Error("401 Forbidden. Check the API key."), { _tag: "AuthError" })
    expect(failureLine(tagged)).toBe("AuthError: 401 Forbidden. Check the API key.")
    expect(failureLine(new Error("boom"))).toBe("boom")
    expect(failureLine("no key")).toBe("no key")
    expect(failureLine(42)).toBe("42")
  })

  it("joins a list of issues after its heading, and the heading after its colon", () => {
    const validation = {
      _tag: "ValidationError",
      message: "Invalid chat request:\n  - model: is required\n  - messages: is empty. Fix the fields listed above."
    }
    expect(failureLine(validation)).toBe(
      "ValidationError: Invalid chat request: model: is required; messages: is empty. Fix the fields listed above."
    )
  })

  it("shows a detail's terminal sequences instead of obeying them", () => {
    expect(failureLine({ _tag: "ApiError", message: "500 \x1b]0;owned\x07 down" })).toBe(
      "ApiError: 500 \\x1b]0;owned\\x07 down"
    )
  })

  it("gives a value that cannot be turned into text by its kind", () => {
    expect(failureLine(Object.create(null))).toBe("[object Object]")
    expect(failureLine({
      toString: () => {
        throw new Error("no")
      }
    })).toBe("[object Object]")
  })
})
