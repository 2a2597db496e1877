/**
 * What the command says when it has no key: `--reference` only to the commands that take it.
 */
import { describe, expect, it } from "vitest"
import { missingKeyMessage } from "../../src/cli/client.js"

describe("missingKeyMessage", () => {
  it("offers --reference only to a command that takes it", () => {
    expect(missingKeyMessage(true)).toMatch(/^STUDIO_API_KEY is not set: .*add --reference/)
    expect(missingKeyMessage(false)).toMatch(/^STUDIO_API_KEY is not set: .*studio-effect serve/)
    expect(missingKeyMessage(false)).not.toContain("--reference")
  })
})
