/**
 * The rate-limit figures of an answer's headers: counts are whole decimal numbers (anything else is left
 * out), resets are kept as sent when short and printable, in each of the three header forms.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { rateLimitOf } from "../src/wire/rateLimit.js"

const count = fc.nat({ max: 1_000_000_000 })
const notACount = fc.string({ maxLength: 8 }).filter((text) => !/^\s*\d{1,15}\s*$/.test(text))

describe("rateLimitOf", () => {
  it("reads each figure of the requests and tokens form", () =>
    fc.assert(fc.property(count, count, count, count, (lr, rr, lt, rt) => {
      expect(rateLimitOf({
        "x-ratelimit-limit-requests": String(lr),
        "x-ratelimit-remaining-requests": String(rr),
        "x-ratelimit-reset-requests": "1s",
        "x-ratelimit-limit-tokens": String(lt),
        "x-ratelimit-remaining-tokens": String(rt),
        "x-ratelimit-reset-tokens": "6m0s"
      })).toEqual({
        limitRequests: lr,
        remainingRequests: rr,
        resetRequests: "1s",
        limitTokens: lt,
        remainingTokens: rt,
        resetTokens: "6m0s"
      })
    })))

  it("reads the x-ratelimit-<figure> and ratelimit-<figure> forms as requests", () =>
    fc.assert(fc.property(count, count, fc.constantFrom("x-ratelimit-", "ratelimit-"), (limit, remaining, prefix) => {
      expect(rateLimitOf({
        [`${prefix}limit`]: String(limit),
        [`${prefix}remaining`]: String(remaining),
        [`${prefix}reset`]: "30"
      })).toEqual({ limitRequests: limit, remainingRequests: remaining, resetRequests: "30" })
    })))

  it("leaves out a count that is not a whole decimal number, and a reset that is empty, long or not printable", () =>
    fc.assert(fc.property(notACount, fc.constantFrom("", " ", "x".repeat(65), "1s\u0000"), (bad, reset) => {
      expect(rateLimitOf({
        "x-ratelimit-limit-requests": bad,
        "x-ratelimit-remaining-tokens": bad,
        "x-ratelimit-reset-requests": reset
      })).toEqual({})
    })))
})
