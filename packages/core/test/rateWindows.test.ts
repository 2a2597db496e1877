import { describe, expect, it } from "vitest"
import { makeRateWindows } from "../src/reference/rateWindows.js"

describe("makeRateWindows", () => {
  it("admits `limit` requests per key in a window, then names the whole seconds left", () => {
    const admit = makeRateWindows(2, 60_000)
    expect([admit("a", 0), admit("a", 1_000), admit("a", 1_500)]).toEqual([undefined, undefined, 59])
    expect(admit("b", 1_500)).toBeUndefined()
    expect(admit("a", 60_000)).toBeUndefined()
  })
})
