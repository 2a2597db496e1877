/**
 * The headers of a refused answer as an error carries them (`error.headers`): a plain object of lower-case
 * names to values, readable without Effect, within a bound whatever the transport lets through.
 *
 * @since 1.0.0
 */

/**
 * The most headers an error keeps, and the longest value: a header past either is left out (the service's
 * own headers are short; Node's HTTP clients refuse more than 16 KiB of headers in all).
 *
 * @since 1.0.0
 * @category limits
 */
export const answerHeadersBounds = { maxHeaders: 100, maxValueLength: 8192 } as const

/**
 * The answer's headers as a plain `Record<string, string>` (own string values only, names in lower case),
 * at most `maxHeaders` of them, each value at most `maxValueLength` characters.
 *
 * @since 1.0.0
 * @category headers
 */
export const answerHeaders = (headers: Readonly<Record<string, unknown>>): Record<string, string> => {
  const plain: Record<string, string> = {}
  let kept = 0
  for (const [name, value] of Object.entries(headers)) {
    if (kept >= answerHeadersBounds.maxHeaders) break
    if (typeof value !== "string" || value.length > answerHeadersBounds.maxValueLength) continue
    Object.defineProperty(plain, name.toLowerCase(), { value, enumerable: true, configurable: true, writable: true })
    kept++
  }
  return plain
}
