/**
 * Secrets replaced in span attributes: no secret survives in a string or an array of strings, and
 * attributes without one are given back as they are.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { redactAttributes, redactedText, redactText } from "../src/secrets/redactSecrets.js"

const secret = fc.stringMatching(/^[A-Za-z0-9-]{6,20}$/).map((s) => `sk-${s}`)
const text = fc.string({ maxLength: 20 })

describe("redactSecrets", () => {
  it("property: a secret anywhere in a string or string array attribute is replaced; other values stay", () =>
    fc.assert(fc.property(secret, text, text, fc.integer(), (key, before, after, number) => {
      const attributes = {
        "gen_ai.response.id": `${before}${key}${after}`,
        "gen_ai.response.finish_reasons": [`${key}`, "stop"],
        "gen_ai.usage.input_tokens": number
      }
      const redacted = redactAttributes(attributes, [key])
      expect(JSON.stringify(redacted)).not.toContain(key)
      expect(redacted["gen_ai.response.id"]).toBe(redactText(`${before}${key}${after}`, [key]))
      expect(redacted["gen_ai.response.finish_reasons"]).toEqual([redactedText, "stop"])
      expect(redacted["gen_ai.usage.input_tokens"]).toBe(number)
      expect(attributes["gen_ai.response.id"]).toBe(`${before}${key}${after}`)
    })))

  it("attributes without a secret are the same object", () => {
    const attributes = { "studio.run.id": "run-1", "studio.run.tools": ["mcp"] }
    expect(redactAttributes(attributes, ["sk-secret"])).toBe(attributes)
    expect(redactAttributes(attributes, [])).toBe(attributes)
  })
})
