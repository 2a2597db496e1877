import {
  Clock,
  describe,
  Duration,
  Effect,
  expect,
  Fiber,
  fork,
  it,
  outcome,
  Schedule,
  TestClock
} from "@studio-effect/line"
import { parseHttpDate, parseRetryAfter, retrySchedule } from "@studio-effect/line/src/internal/http/retry.js"
import { ApiError, RateLimit, TransportError, ValidationError } from "@studio-effect/line/src/StudioError.js"
import * as fc from "fast-check"

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
    const fiber = yield* fork(outcome(Effect.retry(attempt, schedule)))
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

  it("reads the three HTTP-date forms of RFC 9110, in UTC", () => {
    const now = Date.parse("2026-01-01T00:00:00Z")
    const after = (value: string) => parseRetryAfter({ "retry-after": value }, now)
    expect(Duration.toMillis(after("Thursday, 01-Jan-26 00:00:07 GMT")!)).toBe(7000)
    expect(Duration.toMillis(after("Thu Jan  1 00:00:09 2026")!)).toBe(9000)
    expect(Duration.toMillis(after("Wed, 31 Dec 2025 23:59:00 GMT")!)).toBe(0)
    expect(after("Thu, 31 Feb 2026 00:00:05 GMT")).toBeUndefined()
    expect(after("Thu, 01 Jan 2026 25:00:05 GMT")).toBeUndefined()
    expect(after("2026-01-01T00:00:05Z")).toBeUndefined()
  })

  it("takes only digits as seconds: 0x10, 1e1, -1, 1.5 and the like fall back to the backoff", () => {
    const now = 0
    for (const value of ["0x10", "1e1", "-1", "1.5", "+3", "Infinity", "", " ", "10s", "0b11", "1_0"]) {
      expect(parseRetryAfter({ "retry-after": value }, now), value).toBeUndefined()
    }
    for (const value of ["0x10", "1e3", "-5", "Infinity", ""]) {
      expect(parseRetryAfter({ "retry-after-ms": value }, now), value).toBeUndefined()
    }
    expect(Duration.toMillis(parseRetryAfter({ "retry-after": " 10 " }, now)!)).toBe(10_000)
  })

  it("property: any string is digits (that many seconds), an HTTP-date, or no delay", () =>
    fc.assert(fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[0-9a-fxXeE+.\- ]{0,8}$/)), (value) => {
      const delay = parseRetryAfter({ "retry-after": value }, 0)
      const trimmed = value.trim()
      if (/^\d+$/.test(trimmed)) expect(Duration.toMillis(delay!)).toBe(Number(trimmed) * 1000)
      else if (delay !== undefined) expect(parseHttpDate(trimmed, 0)).toBeDefined()
    })))

  it("property: an IMF-fixdate of any instant is read back to the second", () =>
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }),
        (date) => {
          const seconds = Math.floor(date.getTime() / 1000) * 1000
          expect(parseHttpDate(new Date(seconds).toUTCString(), 0)).toBe(seconds)
        }
      )
    ))

  it.effect("a 429 with Retry-After: 0x10 is retried after the backoff, not 16 s", () =>
    Effect.gen(function*() {
      const error = new RateLimit({ detail: "slow", ...fromHeader("0x10") })
      const delays = yield* delaysFor(retrySchedule(1), [error])
      expect(delays.length).toBe(1)
      expect(delays[0]).toBeLessThanOrEqual(600)
    }))
})

const fromHeader = (value: string) => {
  const retryAfter = parseRetryAfter({ "retry-after": value }, 0)
  return retryAfter === undefined ? {} : { retryAfter }
}
