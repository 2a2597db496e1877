/**
 * Timer delays: what the platform's timers hold (up to 2^31 - 1 ms), infinity as no timer.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { maxTimerMillis, timerDelay } from "../src/time/timerDuration.js"

describe("timerDelay", () => {
  it("infinity and NaN are no timer; 2^31 ms and 30 days are clamped; negatives are 0", () => {
    expect(timerDelay(Number.POSITIVE_INFINITY)).toBeUndefined()
    expect(timerDelay(Number.NaN)).toBeUndefined()
    expect(timerDelay(2 ** 31)).toBe(maxTimerMillis)
    expect(timerDelay(30 * 24 * 3600 * 1000)).toBe(maxTimerMillis)
    expect(timerDelay(-5)).toBe(0)
    expect(timerDelay(1500)).toBe(1500)
  })

  it("property: every finite delay is one a timer holds, and no shorter than asked unless over the bound", () =>
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (millis) => {
        const delay = timerDelay(millis)
        if (millis === Number.POSITIVE_INFINITY) {
          expect(delay).toBeUndefined()
        } else {
          expect(delay).toBeGreaterThanOrEqual(0)
          expect(delay).toBeLessThanOrEqual(maxTimerMillis)
          if (millis >= 0 && millis <= maxTimerMillis) expect(delay === millis).toBe(true)
        }
      }),
      { numRuns: 2000 }
    ))
})
