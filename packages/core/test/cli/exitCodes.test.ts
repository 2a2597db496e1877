/**
 * The exit code of a failure: 4 for a refused key, 1 for any other failure; the root help names each code.
 */
import { describe, expect, it } from "vitest"
import { exitCodeOf, exitCodes, exitCodesDescription } from "../../src/cli/exitCodes.js"

describe("exitCodeOf", () => {
  it("tells a refused key from another failure", () => {
    expect(exitCodeOf({ _tag: "AuthError", status: 401 })).toBe(exitCodes.auth)
    expect(exitCodeOf({ _tag: "NotFound" })).toBe(exitCodes.failure)
    expect(exitCodeOf(new Error("boom"))).toBe(exitCodes.failure)
    expect(exitCodeOf(undefined)).toBe(exitCodes.failure)
  })

  it("each code is distinct and said in the help", () => {
    const codes = Object.values(exitCodes)
    expect(new Set(codes).size).toBe(codes.length)
    for (const code of codes) expect(exitCodesDescription).toContain(`${code} `)
  })
})
