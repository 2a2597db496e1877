/**
 * The retry policy of every request: capped, jittered exponential backoff that defers to the delay the
 * service asks for (`retry-after-ms`, `Retry-After`) when it is between 0 and 60 seconds.
 */
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { isRetryable, type StudioError } from "../StudioError.js"

/** First backoff delay; each retry doubles it. */
export const initialBackoff = Duration.millis(500)
/** Longest backoff delay. */
export const maxBackoff = Duration.seconds(8)
/** Longest `Retry-After` that is honoured; a longer one falls back to the backoff. */
export const maxRetryAfter = Duration.seconds(60)

/** The delay the service asked for, carried by the error, when it is within bounds. */
export const requestedDelay = (error: StudioError): Option.Option<Duration.Duration> =>
  error._tag === "RateLimit" && error.retryAfter !== undefined &&
    Duration.lessThanOrEqualTo(error.retryAfter, maxRetryAfter)
    ? Option.some(error.retryAfter)
    : Option.none()

/**
 * Retries a retryable error at most `maxRetries` times: 0.5 s doubling, capped at 8 s, jittered, unless the
 * service named its own delay.
 */
export const retrySchedule = (maxRetries: number): Schedule.Schedule<unknown, StudioError> =>
  Schedule.exponential(initialBackoff, 2).pipe(
    Schedule.jittered,
    // The cap comes after the jitter, so no delay exceeds it.
    Schedule.union(Schedule.spaced(maxBackoff)),
    Schedule.intersect(Schedule.recurs(maxRetries)),
    Schedule.intersect(Schedule.identity<StudioError>()),
    Schedule.whileInput(isRetryable),
    Schedule.modifyDelay(([, error], delay) => Option.getOrElse(requestedDelay(error), () => delay))
  )

/**
 * Parses `retry-after-ms` (milliseconds) or `Retry-After` (seconds, or an HTTP date) into a delay.
 */
export const parseRetryAfter = (
  headers: Readonly<Record<string, string | undefined>>,
  now: number
): Duration.Duration | undefined => {
  const millis = headers["retry-after-ms"]
  if (millis !== undefined) {
    const value = Number(millis)
    if (Number.isFinite(value) && value >= 0) return Duration.millis(value)
  }
  const header = headers["retry-after"]
  if (header === undefined) return undefined
  const seconds = Number(header)
  if (header.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) return Duration.seconds(seconds)
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Duration.millis(Math.max(0, date - now))
}
