/**
 * API keys: printable ASCII only, checked before anything is sent; the problem is named, the key never.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { apiKeyProblem } from "../src/validate/apiKey.js"

const printable = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)) })
const refused = fc.oneof(
  fc.constantFrom("\r", "\n", "\t", " ", "\u00a0", "\ufeff", "\u0000", "\u007f", "é", "\ud800"),
  fc.integer({ min: 0x80, max: 0xffff }).map((c) => String.fromCharCode(c))
)

describe("apiKeyProblem", () => {
  it("property: a key of printable ASCII is accepted", () =>
    fc.assert(
      fc.property(printable, (key) => {
        expect(apiKeyProblem(key)).toBeUndefined()
      }),
      { numRuns: 1000 }
    ))

  it("property: any other character anywhere is refused, named without the key", () =>
    fc.assert(
      fc.property(printable, refused, printable, (before, bad, after) => {
        const key = `sk-SECRET${before}${bad}${after}`
        const problem = apiKeyProblem(key)
        expect(problem).toMatch(/^the API key holds .+ (at its end|at offset \d+): a key is printable ASCII only/)
        expect(problem).not.toContain("SECRET")
      }),
      { numRuns: 1000 }
    ))

  it("a trailing carriage return, as read from a file", () => {
    expect(apiKeyProblem("sk-abc\r")).toBe(
      "the API key holds a carriage return at its end: a key is printable ASCII only (a line break or a space " +
        "at either end often comes from reading it from a file or a terminal)"
    )
  })
})
