/**
 * The reference service's rate limiting: at most `limit` requests per API key in each fixed window; a
 * request over it waits, in whole seconds, until its window ends. Bounded in the keys it remembers.
 */

/** The most API keys whose windows are kept at once; past it, the oldest window is forgotten. */
const maxRateLimitedKeys = 10_000

/**
 * Counts a request of `key` at `now` (milliseconds): `undefined` when it is within the limit, else the
 * seconds (at least 1) until its window ends, for `Retry-After`.
 */
export type RateWindows = (key: string, now: number) => number | undefined

/** Fixed windows of `windowMillis` per key, each admitting `limit` requests. */
export const makeRateWindows = (limit: number, windowMillis: number): RateWindows => {
  const windows = new Map<string, { readonly start: number; count: number }>()
  return (key, now) => {
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
    return slot.count > limit ? Math.max(1, Math.ceil((slot.start + windowMillis - now) / 1000)) : undefined
  }
}
