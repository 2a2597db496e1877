/**
 * The secrets of a request (the key and the tools' credentials, in every form a server may echo them) and an
 * error scrubbed of them: nothing of a secret survives in any string the error carries, and an error that
 * holds none is given back as it is.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { redactedText } from "../src/secrets/redactSecrets.js"
import { scrubError, secretsOf, withCredentials } from "../src/secrets/requestSecrets.js"

const secret = fc.stringMatching(/^[A-Za-z0-9+/]{6,20}$/).map((s) => `sk-${s}`)
const text = fc.string({ maxLength: 20 })

class Tagged {
  static readonly fields = {}
  readonly _tag = "Tagged"
  readonly message: string
  readonly detail: unknown
  constructor(fields: { readonly message: string; readonly detail: unknown }) {
    this.message = fields.message
    this.detail = fields.detail
  }
}
const rebuild = (_: object, fields: Record<string, unknown>) =>
  new Tagged(fields as { readonly message: string; readonly detail: unknown })

describe("requestSecrets", () => {
  it("the key's forms: as sent, without its scheme, JSON-escaped, URL-encoded; short values are not searched", () => {
    const secrets = secretsOf("Bearer a/b\"c", { tools: [{ headers: { Authorization: "Token t0k3n", n: "1" } }] })
    expect(secrets).toEqual(expect.arrayContaining(["Bearer a/b\"c", "a/b\"c", "a/b\\\"c", "a%2Fb%22c", "t0k3n"]))
    expect(secrets).not.toContain("1")
    expect([...secrets].sort((a, b) => b.length - a.length)).toEqual(secrets)
  })

  it("withCredentials gives the same array back when the body holds no credential", () => {
    const secrets = secretsOf("sk-abcdef", undefined)
    expect(withCredentials(secrets, { messages: [{ content: "hi" }] })).toBe(secrets)
    expect(withCredentials(secrets, { headers: { x: "credential" } })).toContain("credential")
  })

  it("property: no secret survives in a scrubbed error's strings, classes made again; clean errors kept", () =>
    fc.assert(fc.property(secret, text, text, (key, before, after) => {
      const secrets = secretsOf(key, undefined)
      const error = new Tagged({ message: `${before}${key}${after}`, detail: { nested: [`${key}`, 1] } })
      const scrubbed = scrubError(error, secrets, rebuild)
      expect(scrubbed).toBeInstanceOf(Tagged)
      expect(JSON.stringify(scrubbed)).not.toContain(key)
      expect(scrubbed.message).toBe(`${before}${key}${after}`.split(key).join(redactedText))
      const clean = new Tagged({ message: before.replaceAll(key, ""), detail: undefined })
      if (!clean.message.includes(key)) expect(scrubError(clean, secrets, rebuild)).toBe(clean)
    })))
})
