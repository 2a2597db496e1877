/**
 * The reference service's rate limiting: at most `limit` requests per API key in each fixed window; a
 * request over it waits, in whole seconds, until its window ends. Bounded in the keys it remembers. Every
 * answer reports the figures of its caller's window in the `x-ratelimit-*-requests` headers, as the service
 * (and OpenAI's convention, which `studio-effect-core/wire/rateLimit` reads) names them.
 */

/** The most API keys whose windows are kept at once; past it, the oldest window is forgotten. */
const maxRateLimitedKeys = 10_000

/**
 * The requests a key may make in a minute when no limit is configured: far more than a test sends, so the
 * service in effect does not refuse, but it counts and reports them as a limited service does.
 */
export const defaultRequestsPerMinute = 1_000_000

/** Where a key's window stands: its limit, the requests it has left, and the whole seconds until it ends. */
export interface WindowFigures {
  readonly limit: number
  readonly remaining: number
  readonly resetSeconds: number
}

/** A key's windows of requests. */
export interface RateWindows {
  /**
   * Counts a request of `key` at `now` (milliseconds): `undefined` when it is within the limit, else the
   * seconds (at least 1) until its window ends, for `Retry-After`.
   */
  readonly admit: (key: string, now: number) => number | undefined
  /** The figures of `key`'s window at `now`, without counting a request (a key not seen has them all left). */
  readonly figures: (key: string, now: number) => WindowFigures
}

/** Fixed windows of `windowMillis` per key, each admitting `limit` requests. */
export const makeRateWindows = (limit: number, windowMillis: number): RateWindows => {
  const windows = new Map<string, { readonly start: number; count: number }>()
  const secondsLeft = (start: number, now: number) => Math.max(1, Math.ceil((start + windowMillis - now) / 1000))
  return {
    admit: (key, now) => {
      const current = windows.get(key)
      const slot = current === undefined || now - current.start >= windowMillis ? { start: now, count: 0 } : current
      slot.count++
      if (slot !== current) {
        // re-inserted, so the map stays in the order windows started: expired ones are at its front
        windows.delete(key)
        windows.set(key, slot)
        for (const [oldKey, old] of windows) {
          if (now - old.start < windowMillis && windows.size <= maxRateLimitedKeys) break
          windows.delete(oldKey)
        }
      }
      return slot.count > limit ? secondsLeft(slot.start, now) : undefined
    },
    figures: (key, now) => {
      const current = windows.get(key)
      const open = current !== undefined && now - current.start < windowMillis
      return {
        limit,
        remaining: open ? Math.max(0, limit - current.count) : limit,
        resetSeconds: open ? secondsLeft(current.start, now) : Math.ceil(windowMillis / 1000)
      }
    }
  }
}

/**
 * The headers every answer of the reference service carries: its `x-request-id`, and its caller's window
 * as `x-ratelimit-limit-requests`, `x-ratelimit-remaining-requests` and `x-ratelimit-reset-requests`
 * (seconds, as `12s`). A header the answer already has (an injected fault's own) is left as it is.
 */
export const answerMetadataHeaders = (
  present: Readonly<Record<string, string>>,
  requestId: string,
  figures: WindowFigures
): Record<string, string> => {
  const headers: Record<string, string> = {
    "x-request-id": requestId,
    "x-ratelimit-limit-requests": String(figures.limit),
    "x-ratelimit-remaining-requests": String(figures.remaining),
    "x-ratelimit-reset-requests": `${figures.resetSeconds}s`
  }
  for (const name of Object.keys(headers)) if (Object.hasOwn(present, name)) delete headers[name]
  return headers
}
