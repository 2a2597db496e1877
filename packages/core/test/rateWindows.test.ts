import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeIds } from "../src/reference/ids.js"
import { answerMetadataHeaders, makeRateWindows } from "../src/reference/rateWindows.js"
import { rateLimitOf } from "../src/wire/rateLimit.js"

describe("makeRateWindows", () => {
  it("admits `limit` requests per key in a window, then names the whole seconds left", () => {
    const { admit } = makeRateWindows(2, 60_000)
    expect([admit("a", 0), admit("a", 1_000), admit("a", 1_500)]).toEqual([undefined, undefined, 59])
    expect(admit("b", 1_500)).toBeUndefined()
    expect(admit("a", 60_000)).toBeUndefined()
  })

  it("reports a key's window without counting: remaining falls with each request, never below 0", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 40 }), (limit, requests) => {
        const windows = makeRateWindows(limit, 60_000)
        expect(windows.figures("k", 0)).toEqual({ limit, remaining: limit, resetSeconds: 60 })
        for (let i = 0; i < requests; i++) windows.admit("k", 1_000)
        const figures = windows.figures("k", 1_500)
        expect(figures).toEqual({
          limit,
          remaining: Math.max(0, limit - requests),
          resetSeconds: 60
        })
        expect(windows.figures("k", 30_000).resetSeconds).toBe(requests > 0 ? 31 : 60)
        expect(windows.figures("k", 1_500)).toEqual(figures)
        expect(windows.figures("other", 1_500).remaining).toBe(limit)
        expect(windows.figures("k", 61_000).remaining).toBe(limit)
      })
    )
  })
})

describe("answerMetadataHeaders", () => {
  it("names the request id and the window as the SDK's rate-limit reader reads them", () => {
    const headers = answerMetadataHeaders({}, "id-1", { limit: 10, remaining: 7, resetSeconds: 42 })
    expect(headers["x-request-id"]).toBe("id-1")
    expect(rateLimitOf(headers)).toEqual({ limitRequests: 10, remainingRequests: 7, resetRequests: "42s" })
  })

  it("leaves a header the answer already has as it is", () => {
    const headers = answerMetadataHeaders(
      { "x-ratelimit-remaining-requests": "0", "content-type": "application/json" },
      "id-2",
      { limit: 10, remaining: 7, resetSeconds: 42 }
    )
    expect(headers["x-ratelimit-remaining-requests"]).toBeUndefined()
    expect(headers["x-ratelimit-limit-requests"]).toBe("10")
  })
})

describe("makeIds().request", () => {
  it("is a UUID, unique per answer, and drawn apart from the resources' ids", () => {
    const ids = makeIds()
    const drawn = Array.from({ length: 200 }, () => ids.request())
    expect(new Set(drawn).size).toBe(drawn.length)
    for (const id of drawn) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    fc.assert(fc.property(fc.integer(), (seed) => {
      const [plain, answering] = [makeIds(seed), makeIds(seed)]
      answering.request()
      expect(answering.chat()).toBe(plain.chat())
      expect(makeIds(seed).request()).toBe(makeIds(seed).request())
    }))
  })
})
