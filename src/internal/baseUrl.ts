/**
 * The base URL policy: an absolute `https://` URL, or `http://` to a loopback host (or anywhere, when the
 * caller allows sending the key in clear text). Anything else is refused before a request is made.
 */
import * as Effect from "effect/Effect"
import { ValidationError, ValidationIssue } from "../StudioError.js"

const isLoopback = (hostname: string): boolean =>
  hostname === "localhost" || hostname === "[::1]" || hostname === "::1" || /^127(?:\.\d{1,3}){3}$/.test(hostname)

/** The base URL without trailing slashes, or the `ValidationError` that says what to use instead. */
export const checkBaseUrl = (baseUrl: string, allowInsecureHttp: boolean): Effect.Effect<string, ValidationError> => {
  const invalid = (message: string) =>
    Effect.fail(
      new ValidationError({
        operation: "client",
        source: "client",
        issues: [new ValidationIssue({ path: "baseUrl", message })]
      })
    )
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return invalid(`"${baseUrl}" is not an absolute URL`)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return invalid("use an https:// (or loopback http://) URL")
  if (url.protocol === "http:" && !isLoopback(url.hostname) && !allowInsecureHttp) {
    return invalid(
      `http:// to ${url.hostname} would send the API key in clear text: use https://, or set allowInsecureHttp`
    )
  }
  return Effect.succeed(baseUrl.replace(/\/+$/, ""))
}
