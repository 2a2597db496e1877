/**
 * The delay a service asks for before a request is sent again: `retry-after-ms`, or `Retry-After` as RFC 9110
 * defines it (seconds, or an HTTP-date).
 */

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
 * The delay in milliseconds that `retry-after-ms` (a non-negative decimal number of milliseconds) or
 * `Retry-After` (a whole number of seconds, digits only, or an HTTP-date) names. Anything else (`0x10`,
 * `1e1`, `-1`, `soon`) is no delay, so the backoff applies.
 */
export const retryAfterMillis = (
  headers: Readonly<Record<string, string | undefined>>,
  now: number
): number | undefined => {
  const millis = headers["retry-after-ms"]?.trim()
  if (millis !== undefined && /^\d+(?:\.\d+)?$/.test(millis)) return Number(millis)
  const header = headers["retry-after"]?.trim()
  if (header === undefined) return undefined
  if (/^\d+$/.test(header)) return Number(header) * 1000
  const date = parseHttpDate(header, now)
  return date === undefined ? undefined : Math.max(0, date - now)
}
