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

/**
 * The path of a request URL without its query.
 *
 * @since 0.1.0
 * @category paths
 */
export const pathOf = (url: string): string => {
  const q = url.indexOf("?")
  return q === -1 ? url : url.slice(0, q)
}
