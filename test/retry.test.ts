import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, Schedule, TestClock } from "effect"
import { parseRetryAfter, retrySchedule } from "../src/internal/retry.js"
import { ApiError, RateLimit, TransportError, ValidationError } from "../src/StudioError.js"

/**
 * The delays between attempts when each attempt fails with the next of `errors` (and the one after the
 * last succeeds), in milliseconds of the test clock.
 */
const delaysFor = <E>(schedule: Schedule.Schedule<unknown, E>, errors: ReadonlyArray<E>) =>
  Effect.gen(function*() {
    const times: Array<number> = []
    const attempt = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      times.push(now)
      const error = errors[times.length - 1]
      return error === undefined ? Effect.void : Effect.fail(error)
    })
    const fiber = yield* Effect.fork(Effect.either(Effect.retry(attempt, schedule)))
    yield* TestClock.adjust("1 hour")
    yield* Fiber.join(fiber)
    return times.slice(1).map((time, i) => time - times[i]!)
  })

const serverError = new ApiError({ status: 503, body: "" })

describe("retry schedule", () => {
  it.effect("backs off from 0.5 s, doubling, jittered, never above 8 s, at most maxRetries times", () =>
    Effect.gen(function*() {
      const delays = yield* delaysFor(retrySchedule(10), Array.from({ length: 12 }, () => serverError))
      expect(delays.length).toBe(10)
      const nominal = [500, 1000, 2000, 4000, 8000, 8000, 8000, 8000, 8000, 8000]
      delays.forEach((delay, i) => {
        expect(delay).toBeGreaterThanOrEqual(Math.min(nominal[i]! * 0.8, 8000) - 0.001)
        expect(delay).toBeLessThanOrEqual(Math.min(nominal[i]! * 1.2, 8000) + 0.001)
      })
    }))

  it.effect("uses the delay the service asked for, between 0 and 60 s", () =>
    Effect.gen(function*() {
      const asked = new RateLimit({ detail: "", retryAfter: Duration.seconds(12) })
      expect(yield* delaysFor(retrySchedule(2), [asked, asked])).toEqual([12_000, 12_000])
      const tooLong = new RateLimit({ detail: "", retryAfter: Duration.seconds(120) })
      const [fallback] = yield* delaysFor(retrySchedule(2), [tooLong])
      expect(fallback).toBeLessThanOrEqual(600)
    }))

  it.effect("stops at an error that a retry cannot fix", () =>
    Effect.gen(function*() {
      const invalid = new ValidationError({ operation: "chat", source: "service", issues: [] })
      expect(yield* delaysFor(retrySchedule(2), [invalid])).toEqual([])
      const refused = new TransportError({ method: "POST", url: "u", reason: "refused" })
      expect((yield* delaysFor(retrySchedule(2), [refused])).length).toBe(1)
    }))
})

describe("Retry-After parsing", () => {
  it("reads retry-after-ms, seconds and HTTP dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z")
    expect(Duration.toMillis(parseRetryAfter({ "retry-after-ms": "250" }, now)!)).toBe(250)
    expect(Duration.toMillis(parseRetryAfter({ "retry-after": "3" }, now)!)).toBe(3000)
    expect(Duration.toMillis(parseRetryAfter({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }, now)!)).toBe(5000)
    expect(parseRetryAfter({ "retry-after": "soon" }, now)).toBeUndefined()
    expect(parseRetryAfter({}, now)).toBeUndefined()
  })
})
