/**
 * The base-URL policy: an absolute `https://` URL (or `http://` to loopback, or anywhere with
 * `allowInsecureHttp`), to which the operations' paths (`/studio/v1/...`) are appended. The address other
 * SDKs take (`https://api.ai21.com/studio/v1`, which `studio-effect serve` prints for them) is accepted and
 * its `/studio/v1` dropped; one ending in `/v1` alone is refused with what to use instead. A refused URL is
 * quoted without its userinfo, query values or fragment, which may hold a password or a token.
 *
 * @since 0.1.0
 */
import { redactUrl } from "./redactUrl.js"

const isLoopback = (hostname: string): boolean =>
  hostname === "localhost" || hostname === "[::1]" || hostname === "::1" || /^127(?:\.\d{1,3}){3}$/.test(hostname)

/** The path every operation starts with; a base URL ending in it would double it. */
const apiPrefix = /\/studio\/v1$/

/**
 * The base URL to use (without a trailing slash), or the problem that says what is wrong and what to use.
 *
 * @since 0.1.0
 * @category checks
 */
export const resolveBaseUrl = (
  baseUrl: string,
  allowInsecureHttp: boolean
): { readonly _tag: "BaseUrl"; readonly url: string } | { readonly _tag: "Problem"; readonly problem: string } => {
  const problem = (text: string) => ({ _tag: "Problem", problem: text }) as const
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return problem(
      `"${redactUrl(baseUrl)}" is not an absolute URL: use the service's address, such as https://api.ai21.com`
    )
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return problem(`use an https:// (or loopback http://) URL, such as https://api.ai21.com`)
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname) && !allowInsecureHttp) {
    return problem(
      `http:// to ${url.hostname} would send the API key in clear text: use https://, or set allowInsecureHttp`
    )
  }
  if (url.search !== "" || url.hash !== "") {
    return problem(
      `"${redactUrl(baseUrl)}" has a query or fragment: use the service's address alone, such as ${url.origin}`
    )
  }
  const path = url.pathname.replace(/\/+$/, "")
  if (apiPrefix.test(path)) return { _tag: "BaseUrl", url: url.origin + path.replace(apiPrefix, "") }
  if (/\/v1$/.test(path)) {
    return problem(
      `"${redactUrl(baseUrl)}" ends in /v1, but the operations' paths (/studio/v1/...) are appended to it: ` +
        `use ${url.origin}${path.replace(/\/v1$/, "")} (without /v1)`
    )
  }
  return { _tag: "BaseUrl", url: url.origin + path }
}
