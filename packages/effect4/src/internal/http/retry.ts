/**
 * The retry policy of every request: capped, jittered exponential backoff that defers to the delay the
 * service asks for (`retry-after-ms`, `Retry-After`) when it is between 0 and 60 seconds.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import { retryAfterMillis } from "studio-effect-core/wire/retryAfter"
import { isRetryable, type StudioError } from "../../StudioError.js"

/** First backoff delay; each retry doubles it. */
export const initialBackoff = Duration.millis(500)
/** Longest backoff delay. */
export const maxBackoff = Duration.seconds(8)
/** Longest `Retry-After` that is honoured; a longer one falls back to the backoff. */
export const maxRetryAfter = Duration.seconds(60)

/** The delay the service asked for, carried by the error, when it is within bounds. */
export const requestedDelay = (error: StudioError): Duration.Duration | undefined =>
  (error._tag === "RateLimit" || error._tag === "ApiError") && error.retryAfter !== undefined &&
    Duration.isLessThanOrEqualTo(error.retryAfter, maxRetryAfter)
    ? error.retryAfter
    : undefined

/**
 * Whether the service cannot have acted on a request that failed this way, so that sending it again
 * cannot create a second run or assistant: the request never reached the service (connection refused,
 * host not found), a 429 (rate limiting refuses a request before handling it), or a 503 that says when to
 * come back (`Retry-After`: the service shed the request before working on it). A timeout, a reset once
 * connected, or any other status may follow work the service did.
 */
export const serviceCannotHaveActed = (error: StudioError): boolean => {
  switch (error._tag) {
    case "TransportError":
      return error.unsent === true
    case "RateLimit":
      return true
    case "ApiError":
      return error.status === 503 && error.retryAfter !== undefined
    default:
      return false
  }
}

/**
 * Retries an error that `retryable` accepts (by default, every retryable error) at most `maxRetries` times:
 * 0.5 s doubling, capped at 8 s, jittered, unless the service named its own delay.
 */
export const retrySchedule = (
  maxRetries: number,
  retryable: (error: StudioError) => boolean = isRetryable
): Schedule.Schedule<Duration.Duration, StudioError> =>
  Schedule.exponential(initialBackoff, 2).pipe(
    Schedule.jittered,
    Schedule.setInputType<StudioError>(),
    // The cap comes after the jitter, so no delay exceeds it.
    Schedule.modifyDelay(({ duration, input }) =>
      Effect.succeed(requestedDelay(input) ?? Duration.min(duration, maxBackoff))
    ),
    Schedule.while(({ attempt, input }) => attempt <= maxRetries && retryable(input))
  )

export { parseHttpDate } from "studio-effect-core/wire/retryAfter"

/**
 * Parses `retry-after-ms` or `Retry-After` as the core's `retryAfterMillis` does, as a `Duration`; anything
 * it does not read is no delay, so the backoff applies.
 */
export const parseRetryAfter = (
  headers: Readonly<Record<string, string | undefined>>,
  now: number
): Duration.Duration | undefined => {
  const millis = retryAfterMillis(headers, now)
  return millis === undefined ? undefined : Duration.millis(millis)
}
