/**
 * Mapping a non-200 answer of the service to the error of its status, keeping the service's `detail`.
 */
import {
  ApiError,
  AuthError,
  NotFound,
  RateLimit,
  type RequestError,
  ValidationError,
  ValidationIssue
} from "../../StudioError.js"
import { formatPath } from "../schema/issues.js"
import { isRedirect, redirectDetail } from "./redirect.js"
import { parseRetryAfter } from "./retry.js"

/** The request id the service sent, under either of its usual names. */
export const requestIdOf = (headers: Readonly<Record<string, string | undefined>>): string | undefined =>
  headers["request-id"] ?? headers["x-request-id"]

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
const fastApiIssues = (detail: unknown): Array<ValidationIssue> | undefined => {
  if (!Array.isArray(detail)) return undefined
  const issues: Array<ValidationIssue> = []
  for (const entry of detail) {
    if (typeof entry !== "object" || entry === null) return undefined
    const { loc, msg } = entry as { loc?: unknown; msg?: unknown }
    const path = Array.isArray(loc) ? loc.filter((x) => typeof x === "string" || typeof x === "number") : []
    const relative = path[0] === "body" || path[0] === "path" || path[0] === "query" ? path.slice(1) : path
    issues.push(new ValidationIssue({ path: formatPath(relative), message: typeof msg === "string" ? msg : "invalid" }))
  }
  return issues
}

/** The error for a non-200 answer, from its status, headers and body text. */
export const fromResponse = (input: {
  readonly operation: string
  /** The request's method and full address, named by a 404. */
  readonly method?: string | undefined
  readonly url?: string | undefined
  readonly status: number
  readonly headers: Readonly<Record<string, string | undefined>>
  /** The start of the body, as `readErrorBody` reads it (at most 8 KiB). */
  readonly body: string
  readonly now: number
}): RequestError => {
  const { body, headers, operation, status } = input
  const requestId = requestIdOf(headers)
  const json = parseJson(body)
  const detail = typeof json === "object" && json !== null && "detail" in json
    ? (json as { detail: unknown }).detail
    : undefined
  const optionalId = requestId === undefined ? {} : { requestId }
  switch (status) {
    case 400:
    case 422: {
      const issues = fastApiIssues(detail) ??
        [new ValidationIssue({ path: "(root)", message: detailText(detail, body || "invalid request") })]
      return new ValidationError({ operation, source: "service", issues, status, ...optionalId })
    }
    case 401:
    case 403:
      return new AuthError({ status, detail: detailText(detail, "Forbidden."), ...optionalId })
    case 404:
      return new NotFound({
        detail: detailText(detail, "Not Found"),
        ...optionalId,
        ...(input.method === undefined ? {} : { method: input.method }),
        ...(input.url === undefined ? {} : { url: input.url })
      })
    case 429: {
      const retryAfter = parseRetryAfter(headers, input.now)
      return new RateLimit({
        detail: detailText(detail, "Too many requests."),
        ...(retryAfter === undefined ? {} : { retryAfter }),
        ...optionalId
      })
    }
    default:
      if (isRedirect(status)) {
        return new ApiError({
          status,
          detail: redirectDetail(status, headers["location"]),
          body,
          ...optionalId
        })
      }
      const retryAfter = parseRetryAfter(headers, input.now)
      return new ApiError({
        status,
        body,
        ...(detail === undefined ? {} : { detail }),
        ...optionalId,
        ...(retryAfter === undefined ? {} : { retryAfter })
      })
  }
}
