/**
 * URLs as messages show them. A URL given by a user or a server may carry a secret: a password in its
 * userinfo (`https://user:pass@host`), a token in a query value (`?api_key=...`), anything in its
 * fragment. Every message of the package that quotes a URL quotes it through `redactUrl`.
 *
 * @since 0.1.0
 */

/** What a query value is replaced with. */
const hiddenValue = "…"

/**
 * `text` (a URL, or what was given as one) without its userinfo, with each query value replaced by `…` (the
 * names stay, to say what was there; a part without `=` is all value) and without its fragment. Works on text that does not parse as a
 * URL too: whatever precedes an `@` in the authority is dropped.
 *
 * @since 0.1.0
 * @category urls
 */
export const redactUrl = (text: string): string => {
  const hash = text.indexOf("#")
  const withoutFragment = hash === -1 ? text : text.slice(0, hash)
  const question = withoutFragment.indexOf("?")
  const beforeQuery = question === -1 ? withoutFragment : withoutFragment.slice(0, question)
  const query = question === -1 ? undefined : withoutFragment.slice(question + 1)
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.exec(beforeQuery)
  const authorityStart = scheme !== null ? scheme[0].length : beforeQuery.startsWith("//") ? 2 : 0
  const slash = beforeQuery.slice(authorityStart).search(/[/\\]/)
  const authorityEnd = slash === -1 ? beforeQuery.length : authorityStart + slash
  const at = authorityEnd === authorityStart ? -1 : beforeQuery.lastIndexOf("@", authorityEnd - 1)
  const address = at < authorityStart
    ? beforeQuery
    : beforeQuery.slice(0, authorityStart) + beforeQuery.slice(at + 1)
  if (query === undefined) return address
  const names = query.split("&").map((pair) => {
    const equals = pair.indexOf("=")
    return equals === -1 ? (pair === "" ? "" : hiddenValue) : `${pair.slice(0, equals)}=${hiddenValue}`
  })
  return `${address}?${names.join("&")}`
}

/** An absolute URL in running text: a scheme, `://`, and everything up to a space, quote or bracket. */
const urlInText = /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s"'<>()]*/g

/**
 * `text` with every absolute URL in it cut to its path (`POST https://host/studio/v1/x failed` becomes
 * `POST /studio/v1/x failed`), shown as `redactUrl` shows it: for text that leaves the application, such
 * as the error event forwarded to a browser, which must not learn the service's address.
 *
 * @since 0.1.0
 * @category urls
 */
export const withoutOrigins = (text: string): string =>
  text.replace(urlInText, (url) => {
    const shown = redactUrl(url)
    const path = shown.slice(shown.indexOf("://") + 3).search(/[/?]/)
    return path === -1 ? "/" : shown.slice(shown.indexOf("://") + 3 + path)
  })
