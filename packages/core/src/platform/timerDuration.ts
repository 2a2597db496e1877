/**
 * Durations as the platform's timers can hold them. `setTimeout` keeps its delay in a signed 32-bit
 * integer: a delay of 2^31 ms (about 24.8 days) or more, or an infinite one, is replaced by 1 ms, so a
 * timeout of "30 days" would fire at once. Every timer of the package takes its delay from here, or is a
 * `longTimer`.
 *
 * @since 0.1.0
 */

/**
 * The longest delay a timer of the platform holds: 2^31 - 1 ms.
 *
 * @since 0.1.0
 * @category time
 */
export const maxTimerMillis = 2 ** 31 - 1

/**
 * The delay to arm a timer with for `millis`: `undefined` when there is to be no timer (an infinite or
 * not-a-number duration), otherwise `millis` clamped to `[0, maxTimerMillis]`. A longer wait is made of
 * timers re-armed for what remains.
 *
 * @since 0.1.0
 * @category time
 */
export const timerDelay = (millis: number): number | undefined =>
  Number.isNaN(millis) || millis === Number.POSITIVE_INFINITY
    ? undefined
    : Math.min(Math.max(millis, 0), maxTimerMillis)

/**
 * A timer that calls `onFire` after `millis`, however long: made of platform timers of at most
 * `maxTimerMillis` each, re-armed for what remains; none at all for an infinite `millis`. `cancel` stops it.
 *
 * @since 0.1.0
 * @category time
 */
export const longTimer = (millis: number, onFire: () => void): { readonly cancel: () => void } => {
  let handle: ReturnType<typeof setTimeout> | undefined
  const arm = (remaining: number): void => {
    const delay = timerDelay(remaining)
    if (delay === undefined) return
    handle = setTimeout(() => delay < remaining ? arm(remaining - delay) : onFire(), delay)
  }
  arm(millis)
  return { cancel: () => clearTimeout(handle) }
}
