/**
 * The status → error rules: which error a non-200 answer of the service is, and what it carries, from its
 * status, headers and the start of its body (FastAPI's `detail`, the request id, the delay it asked for).
 * Each Effect line builds its own error class from the description.
 */
import { redactUrl } from "../url/redactUrl.js"
import { formatPath, type Issue } from "../validate/issues.js"
import { retryAfterMillis } from "./retryAfter.js"

/** The headers of an answer, by lower-case name. */
export type ResponseHeaders = Readonly<Record<string, string | undefined>>

/** The request id the service sent, under either of its usual names. */
export const requestIdOf = (headers: ResponseHeaders): string | undefined =>
  headers["request-id"] ?? headers["x-request-id"]

/** Whether a status is a redirect (or `fetch`'s opaque redirect, status 0 in a browser). */
export const isRedirect = (status: number): boolean => (status >= 300 && status < 400) || status === 0

/** What a redirect's `ApiError` says: where it pointed (the message adds what to do). */
export const redirectDetail = (status: number, location: string | undefined): string =>
  `Redirect to ${
    location === undefined ? "(no Location)" : redactUrl(location)
  } not followed (a ${status} is never followed, so the API key ` +
  "is never sent to another address)"

/** The error a non-200 answer is, with what it carries; `retryAfterMillis` is the delay asked for. */
export type ResponseErrorDescription =
  | {
    readonly _tag: "ValidationError"
    readonly status: number
    readonly issues: ReadonlyArray<Issue>
    readonly requestId?: string
  }
  | { readonly _tag: "AuthError"; readonly status: number; readonly detail: string; readonly requestId?: string }
  | {
    readonly _tag: "NotFound"
    readonly detail: string
    readonly requestId?: string
    readonly method?: string
    readonly url?: string
  }
  | {
    readonly _tag: "RateLimit"
    readonly detail: string
    readonly retryAfterMillis?: number
    readonly requestId?: string
  }
  | {
    readonly _tag: "ApiError"
    readonly status: number
    readonly detail?: unknown
    readonly body: string
    readonly requestId?: string
    readonly retryAfterMillis?: number
  }

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const detailText = (detail: unknown, fallback: string): string =>
  typeof detail === "string" ? detail : detail === undefined ? fallback : JSON.stringify(detail)

/** FastAPI's `[{loc, msg, type}]` as path-addressed issues; `loc` starts with where the value was (`body`). */
const fastApiIssues = (detail: unknown): Array<Issue> | undefined => {
  if (!Array.isArray(detail)) return undefined
  const issues: Array<Issue> = []
  for (const entry of detail) {
    if (typeof entry !== "object" || entry === null) return undefined
    const { loc, msg } = entry as { loc?: unknown; msg?: unknown }
    const path = Array.isArray(loc) ? loc.filter((x) => typeof x === "string" || typeof x === "number") : []
    const relative = path[0] === "body" || path[0] === "path" || path[0] === "query" ? path.slice(1) : path
    issues.push({ path: formatPath(relative), message: typeof msg === "string" ? msg : "invalid" })
  }
  return issues
}

/** Which error a non-200 answer is, from its status, headers and body text. */
export const describeResponseError = (input: {
  /** The request's method and full address, named by a 404. */
  readonly method?: string | undefined
  readonly url?: string | undefined
  readonly status: number
  readonly headers: ResponseHeaders
  /** The start of the body (at most 8 KiB are read). */
  readonly body: string
  readonly now: number
}): ResponseErrorDescription => {
  const { body, headers, status } = input
  const requestId = requestIdOf(headers)
  const json = parseJson(body)
  const detail = typeof json === "object" && json !== null && "detail" in json
    ? (json as { detail: unknown }).detail
    : undefined
  const optionalId = requestId === undefined ? {} : { requestId }
  const retryAfter = (): { readonly retryAfterMillis?: number } => {
    const millis = retryAfterMillis(headers, input.now)
    return millis === undefined ? {} : { retryAfterMillis: millis }
  }
  switch (status) {
    case 400:
    case 422: {
      const issues = fastApiIssues(detail) ??
        [{ path: "(root)", message: detailText(detail, body || "invalid request") }]
      return { _tag: "ValidationError", issues, status, ...optionalId }
    }
    case 401:
    case 403:
      return { _tag: "AuthError", status, detail: detailText(detail, "Forbidden."), ...optionalId }
    case 404:
      return {
        _tag: "NotFound",
        detail: detailText(detail, "Not Found"),
        ...optionalId,
        ...(input.method === undefined ? {} : { method: input.method }),
        ...(input.url === undefined ? {} : { url: input.url })
      }
    case 429:
      return { _tag: "RateLimit", detail: detailText(detail, "Too many requests."), ...retryAfter(), ...optionalId }
    default:
      if (isRedirect(status)) {
        return { _tag: "ApiError", status, detail: redirectDetail(status, headers["location"]), body, ...optionalId }
      }
      return {
        _tag: "ApiError",
        status,
        body,
        ...(detail === undefined ? {} : { detail }),
        ...optionalId,
        ...retryAfter()
      }
  }
}
