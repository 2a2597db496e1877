/**
 * The rate-limit figures a service sends with its answers: how many requests and tokens the key may use
 * in the current window, how many remain, and when the window resets. Read from the headers in the
 * `x-ratelimit-<figure>-<requests|tokens>` form, or the `x-ratelimit-<figure>` and IETF `ratelimit-<figure>`
 * forms (which count requests).
 *
 * @since 0.1.0
 */

/**
 * What an answer said about the key's rate limits; a figure the answer did not send is left out.
 * `resetRequests` and `resetTokens` are the header values as sent (such as `1s` or `6m0s`, or seconds).
 *
 * @since 0.1.0
 * @category models
 */
export interface RateLimitFigures {
  readonly limitRequests?: number | undefined
  readonly remainingRequests?: number | undefined
  readonly resetRequests?: string | undefined
  readonly limitTokens?: number | undefined
  readonly remainingTokens?: number | undefined
  readonly resetTokens?: string | undefined
}

/** A count: decimal digits only (at most 15, so that it is exact), else `undefined`. */
const countOf = (value: string | undefined): number | undefined => {
  const text = value?.trim()
  return text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined
}

/** A reset as sent, when it is short and printable, else `undefined`. */
const resetOf = (value: string | undefined): string | undefined => {
  const text = value?.trim()
  return text !== undefined && text !== "" && text.length <= 64 && /^[\x20-\x7e]+$/.test(text) ? text : undefined
}

/**
 * The rate-limit figures of an answer's headers (names in lower case, as HTTP clients give them).
 *
 * @since 0.1.0
 * @category parsing
 */
export const rateLimitOf = (headers: Readonly<Record<string, string | undefined>>): RateLimitFigures => {
  const figures: {
    -readonly [K in keyof RateLimitFigures]: RateLimitFigures[K]
  } = {}
  const limitRequests = countOf(
    headers["x-ratelimit-limit-requests"] ?? headers["x-ratelimit-limit"] ?? headers["ratelimit-limit"]
  )
  const remainingRequests = countOf(
    headers["x-ratelimit-remaining-requests"] ?? headers["x-ratelimit-remaining"] ?? headers["ratelimit-remaining"]
  )
  const resetRequests = resetOf(
    headers["x-ratelimit-reset-requests"] ?? headers["x-ratelimit-reset"] ?? headers["ratelimit-reset"]
  )
  const limitTokens = countOf(headers["x-ratelimit-limit-tokens"])
  const remainingTokens = countOf(headers["x-ratelimit-remaining-tokens"])
  const resetTokens = resetOf(headers["x-ratelimit-reset-tokens"])
  if (limitRequests !== undefined) figures.limitRequests = limitRequests
  if (remainingRequests !== undefined) figures.remainingRequests = remainingRequests
  if (resetRequests !== undefined) figures.resetRequests = resetRequests
  if (limitTokens !== undefined) figures.limitTokens = limitTokens
  if (remainingTokens !== undefined) figures.remainingTokens = remainingTokens
  if (resetTokens !== undefined) figures.resetTokens = resetTokens
  return figures
}
