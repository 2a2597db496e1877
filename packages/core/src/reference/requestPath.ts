/**
 * The path of a request as the reference service reads it.
 *
 * @since 0.1.0
 */

/**
 * Whether every percent-escape of `path` is well formed and decodes to UTF-8 text. An id written with a
 * broken escape (`%ZZ`, `%E0%A4%A`) names nothing the service holds: the service answers 404, as it does
 * for any id it does not know, instead of taking the path for another route.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isDecodablePath = (path: string): boolean => {
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}
