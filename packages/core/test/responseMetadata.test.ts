import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { answerHeadersBounds } from "../src/failure/answerHeaders.js"
import { redactedText } from "../src/secrets/redactSecrets.js"
import { secretsOf } from "../src/secrets/requestSecrets.js"
import { responseMetadata } from "../src/wire/responseMetadata.js"

describe("responseMetadata", () => {
  it("gives the status, the headers in lower case, the request id and the rate-limit figures", () => {
    const metadata = responseMetadata(
      200,
      { "X-Request-Id": "req-1", "x-ratelimit-remaining-requests": "9", "x-ratelimit-reset-tokens": "6m0s" },
      []
    )
    expect(metadata).toEqual({
      status: 200,
      headers: { "x-request-id": "req-1", "x-ratelimit-remaining-requests": "9", "x-ratelimit-reset-tokens": "6m0s" },
      requestId: "req-1",
      rateLimit: { remainingRequests: 9, resetTokens: "6m0s" }
    })
  })

  it("never shows a secret of the request, in any header or the request id, and keeps the headers' bounds", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 40 }).filter((key) => key.trim() === key && !/\s/.test(key)),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 150 }),
        fc.string({ maxLength: 10 }),
        (key, headers, around) => {
          const echoed = { ...headers, "x-request-id": `${around}${key}${around}`, "x-echo": `Bearer ${key}` }
          const metadata = responseMetadata(401, echoed, secretsOf(key, undefined))
          expect(Object.keys(metadata.headers).length).toBeLessThanOrEqual(answerHeadersBounds.maxHeaders)
          for (const value of Object.values(metadata.headers)) expect(value).not.toContain(key)
          if (metadata.requestId !== undefined) {
            expect(metadata.requestId).not.toContain(key)
            expect(metadata.requestId).toContain(redactedText)
          }
        }
      )
    )
  })
})
