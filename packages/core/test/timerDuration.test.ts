/**
 * Timer delays: what the platform's timers hold (up to 2^31 - 1 ms), infinity as no timer.
 */
import * as fc from "fast-check"
import { afterEach, describe, expect, it, vi } from "vitest"
import { longTimer, maxTimerMillis, timerDelay } from "../src/platform/timerDuration.js"

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

describe("longTimer", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  const day = 24 * 3600 * 1000

  it("30 days fires after 30 days, not before, with no platform timer longer than it holds", () => {
    vi.useFakeTimers()
    const delays: Array<number | undefined> = []
    const setTimeout = globalThis.setTimeout
    const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(
      ((f: () => void, ms?: number) => {
        delays.push(ms)
        return setTimeout(f, ms)
      }) as typeof globalThis.setTimeout
    )
    let fired = 0
    longTimer(30 * day, () => fired++)
    vi.advanceTimersByTime(30 * day - 1)
    expect(fired).toBe(0)
    vi.advanceTimersByTime(1)
    expect(fired).toBe(1)
    spy.mockRestore()
    expect(delays.length).toBe(2)
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(maxTimerMillis)
  })

  it("infinity never fires and arms nothing; cancel stops a timer", () => {
    vi.useFakeTimers()
    let fired = 0
    longTimer(Number.POSITIVE_INFINITY, () => fired++)
    expect(vi.getTimerCount()).toBe(0)
    const timer = longTimer(1000, () => fired++)
    timer.cancel()
    vi.advanceTimersByTime(100 * day)
    expect(fired).toBe(0)
    longTimer(1000, () => fired++)
    vi.advanceTimersByTime(1000)
    expect(fired).toBe(1)
  })
})
