/**
 * The retry policy of every request: capped, jittered exponential backoff that defers to the delay the
 * service asks for (`retry-after-ms`, `Retry-After`) when it is between 0 and 60 seconds.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
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

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const day = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
const month = `(${months.join("|")})`
const time = "(\\d{2}):(\\d{2}):(\\d{2})"
/** RFC 9110's three forms of HTTP-date: IMF-fixdate, the obsolete RFC 850 form, and asctime. */
const imfFixdate = new RegExp(`^${day}, (\\d{2}) ${month} (\\d{4}) ${time} GMT$`)
const rfc850 = new RegExp(
  `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${month}-(\\d{2}) ${time} GMT$`
)
const asctime = new RegExp(`^${day} ${month} ([ \\d]\\d) ${time} (\\d{4})$`)

/**
 * An HTTP-date (RFC 9110 section 5.6.7) as milliseconds since the epoch, or `undefined` for anything else.
 * `Date.parse` is not used: it takes `"10"` for the year 2001 and reads local time where no zone is given.
 */
export const parseHttpDate = (text: string, now: number): number | undefined => {
  let parts: [day: string, month: string, year: number, hour: string, minute: string, second: string] | undefined
  let match = imfFixdate.exec(text)
  if (match !== null) parts = [match[1]!, match[2]!, Number(match[3]), match[4]!, match[5]!, match[6]!]
  else if ((match = rfc850.exec(text)) !== null) {
    // a two-digit year that would be more than 50 years in the future is in the past century (RFC 9110)
    const year = Number(match[3])
    const thisYear = new Date(now).getUTCFullYear()
    let full = Math.floor(thisYear / 100) * 100 + year
    if (full > thisYear + 50) full -= 100
    parts = [match[1]!, match[2]!, full, match[4]!, match[5]!, match[6]!]
  } else if ((match = asctime.exec(text)) !== null) {
    parts = [match[2]!.trim(), match[1]!, Number(match[6]), match[3]!, match[4]!, match[5]!]
  }
  if (parts === undefined) return undefined
  const [dayOfMonth, monthName, year, hour, minute, second] = parts
  const millis = Date.UTC(
    year,
    months.indexOf(monthName),
    Number(dayOfMonth),
    Number(hour),
    Number(minute),
    Number(second)
  )
  const check = new Date(millis)
  // 31 Feb and 25:00 are not dates
  return check.getUTCDate() === Number(dayOfMonth) && check.getUTCHours() === Number(hour) &&
      check.getUTCMinutes() === Number(minute) && check.getUTCSeconds() === Number(second)
    ? millis
    : undefined
}

/**
 * Parses `retry-after-ms` (a non-negative decimal number of milliseconds) or `Retry-After` as RFC 9110
 * defines it: a whole number of seconds (digits only), or an HTTP-date. Anything else (`0x10`, `1e1`,
 * `-1`, `soon`) is no delay, so the backoff applies.
 */
export const parseRetryAfter = (
  headers: Readonly<Record<string, string | undefined>>,
  now: number
): Duration.Duration | undefined => {
  const millis = headers["retry-after-ms"]?.trim()
  if (millis !== undefined && /^\d+(?:\.\d+)?$/.test(millis)) return Duration.millis(Number(millis))
  const header = headers["retry-after"]?.trim()
  if (header === undefined) return undefined
  if (/^\d+$/.test(header)) return Duration.seconds(Number(header))
  const date = parseHttpDate(header, now)
  return date === undefined ? undefined : Duration.millis(Math.max(0, date - now))
}
