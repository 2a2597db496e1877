/**
 * The errors of every operation, as `Schema.TaggedError` classes, and their union `StudioError`.
 *
 * None of them holds the API key, a request's headers, or a tool's credential headers: they carry only
 * what the service said (status, `detail`, request id) and what the caller needs to act.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Schema from "effect/Schema"
import { redactUrl } from "studio-effect-core/url/redactUrl"
import { MaestroRun } from "./MaestroSchema.js"

/**
 * A message: what happened, the request id when the service sent one, then what to do next (every message
 * ends with it). `what` ends without a full stop; one is added.
 */
const say = (what: string, requestId: string | undefined, next: string): string =>
  `${what}${requestId === undefined ? "" : ` (request id ${requestId})`}. ${next}`

/** A duration as people write it: `10s`, `1m 30s`, `250ms`. */
const formatDuration = (duration: Duration.Duration): string => Duration.format(duration)

/**
 * One problem found in a request, with the path of the offending field.
 *
 * @since 0.1.0
 * @category models
 */
export class ValidationIssue extends Schema.Class<ValidationIssue>("ValidationIssue")({
  path: Schema.String,
  message: Schema.String
}) {}

/**
 * A request breaks a rule of the interface. Raised before anything is sent (`source: "client"`), or when
 * the service answers 400 or 422 (`source: "service"`). Lists every issue with its path.
 *
 * @since 0.1.0
 * @category errors
 */
export class ValidationError extends Schema.TaggedError<ValidationError>()("ValidationError", {
  operation: Schema.String,
  source: Schema.Literal("client", "service"),
  issues: Schema.Array(ValidationIssue),
  status: Schema.optional(Schema.Number),
  requestId: Schema.optional(Schema.String)
}) {
  override get message(): string {
    const head = this.source === "client"
      ? `Invalid ${this.operation} request`
      : `${this.status ?? 422} The service rejected the ${this.operation} request`
    const lines = this.issues.map((issue) => `  - ${issue.path}: ${issue.message}`)
    const next = this.source === "client"
      ? "Fix the fields listed above; nothing was sent."
      : "Fix the fields listed above before sending again; retrying as is gives the same answer."
    return say([`${head}:`, ...lines].join("\n"), this.requestId, next)
  }
}

/**
 * The service refused the credentials (401/403), or no API key was configured.
 *
 * @since 0.1.0
 * @category errors
 */
export class AuthError extends Schema.TaggedError<AuthError>()("AuthError", {
  status: Schema.optional(Schema.Number),
  detail: Schema.String,
  requestId: Schema.optional(Schema.String)
}) {
  override get message(): string {
    const status = this.status === undefined ? "" : `${this.status} `
    return say(
      `${status}${this.detail.replace(/\.$/, "")}`,
      this.requestId,
      "Check the API key (STUDIO_API_KEY, or the apiKey option) and its permissions."
    )
  }
}

/**
 * The service answered 429. `retryAfter` is the delay it asked for, when it sent one.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimit extends Schema.TaggedError<RateLimit>()("RateLimit", {
  detail: Schema.String,
  retryAfter: Schema.optional(Schema.DurationFromSelf),
  requestId: Schema.optional(Schema.String)
}) {
  /** The answer's status: always 429. */
  get status(): 429 {
    return 429
  }
  override get message(): string {
    const next = this.retryAfter === undefined
      ? "Wait a little and call again, or lower your concurrency."
      : `Retry after ${formatDuration(this.retryAfter)}, or lower your concurrency.`
    return say(`429 ${this.detail.replace(/\.$/, "")}`, this.requestId, next)
  }
}

/**
 * The service answered 404: the assistant or run does not exist (or is not visible to this key).
 *
 * @since 0.1.0
 * @category errors
 */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  detail: Schema.String,
  requestId: Schema.optional(Schema.String),
  /** The request's method and full address, so a wrong `baseUrl` shows. */
  method: Schema.optional(Schema.String),
  url: Schema.optional(Schema.String)
}) {
  /** The answer's status: always 404. */
  get status(): 404 {
    return 404
  }
  /** Whether the address itself is unknown (the service's generic `Not Found`), not an id in it. */
  get unknownRoute(): boolean {
    return /^not found\.?$/i.test(this.detail.trim())
  }
  override get message(): string {
    const where = this.url === undefined
      ? ""
      : ` (${this.method === undefined ? "" : `${this.method} `}${redactUrl(this.url)})`
    const next = this.unknownRoute
      ? "Check baseUrl: it is the service's address without a path such as /studio/v1 (for example https://api.ai21.com)."
      : "Check the id, and that it belongs to this API key's organisation."
    return say(`404 ${this.detail.replace(/\.$/, "")}${where}`, this.requestId, next)
  }
}

/**
 * Any other non-200 answer (a redirect included: none is followed): its status, the parsed `detail`, and
 * the start of the raw body (its first 8 KiB: the rest is never read).
 *
 * @since 0.1.0
 * @category errors
 */
export class ApiError extends Schema.TaggedError<ApiError>()("ApiError", {
  status: Schema.Number,
  detail: Schema.optional(Schema.Unknown),
  body: Schema.String,
  requestId: Schema.optional(Schema.String)
}) {
  override get message(): string {
    const detail = typeof this.detail === "string"
      ? this.detail
      : this.detail === undefined
      ? this.body.slice(0, 200)
      : JSON.stringify(this.detail).slice(0, 200)
    const next = this.status >= 300 && this.status < 400
      ? "Set baseUrl to the address that answers directly, if you trust it."
      : this.status >= 500 || this.status === 408 || this.status === 409
      ? "The service had a problem: retry later, and report the status and request id if it persists."
      : "Check the request and baseUrl; report the status and request id if they are right."
    const said = detail.trim().replace(/\.$/, "")
    return say(said === "" ? `${this.status} (no detail)` : `${this.status} ${said}`, this.requestId, next)
  }
}

/**
 * The request never got a complete answer: connection refused or reset, DNS, TLS, or a body cut off.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends Schema.TaggedError<TransportError>()("TransportError", {
  method: Schema.String,
  url: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    const next = /before \[DONE\]/.test(this.reason)
      ? "Retry the call (a stream is not retried for you once it has started)."
      : "Check that the service is reachable at this address (network, proxy, TLS), then retry."
    return say(
      `${this.method} ${redactUrl(this.url)} failed: ${this.reason.trim().replace(/\.$/, "")}`,
      undefined,
      next
    )
  }
}

/**
 * An attempt took longer than its timeout, or a stream produced nothing for longer than its idle timeout.
 *
 * @since 0.1.0
 * @category errors
 */
export class TimeoutError extends Schema.TaggedError<TimeoutError>()("TimeoutError", {
  phase: Schema.Literal("attempt", "stream-idle"),
  timeout: Schema.DurationFromSelf,
  method: Schema.String,
  url: Schema.String
}) {
  override get message(): string {
    const what = this.phase === "attempt" ? "did not answer" : "sent nothing"
    const next = this.phase === "attempt"
      ? "Retry, or raise the timeout option for long answers."
      : "Retry, or raise the streamIdleTimeout option for slow streams."
    return say(`${this.method} ${redactUrl(this.url)} ${what} within ${formatDuration(this.timeout)}`, undefined, next)
  }
}

/**
 * A 200 whose body does not match the expected schema, or a malformed event stream.
 *
 * @since 0.1.0
 * @category errors
 */
export class DecodeError extends Schema.TaggedError<DecodeError>()("DecodeError", {
  operation: Schema.String,
  reason: Schema.String,
  body: Schema.optional(Schema.String),
  requestId: Schema.optional(Schema.String)
}) {
  override get message(): string {
    return say(
      `Unexpected ${this.operation} response: ${this.reason.trim().replace(/\.$/, "")}`,
      this.requestId,
      "Check that baseUrl points at the Studio service; if it does, report this with the request id."
    )
  }
}

/**
 * A polled run ended with status `failed`.
 *
 * @since 0.1.0
 * @category errors
 */
export class RunFailed extends Schema.TaggedError<RunFailed>()("RunFailed", {
  run: MaestroRun,
  reason: Schema.String
}) {
  override get message(): string {
    return say(
      `Run ${this.run.id} failed: ${this.reason.trim().replace(/\.$/, "")}`,
      undefined,
      "Fix what the reason names (often a tool or a requirement) and create a new run."
    )
  }
}

/**
 * Polling a run passed its deadline; `lastRun` is the last snapshot seen.
 *
 * @since 0.1.0
 * @category errors
 */
export class PollTimeout extends Schema.TaggedError<PollTimeout>()("PollTimeout", {
  runId: Schema.String,
  lastRun: Schema.optional(MaestroRun)
}) {
  override get message(): string {
    const status = this.lastRun === undefined ? "" : ` (last status: ${this.lastRun.status})`
    return say(
      `Run ${this.runId} did not reach a terminal status before polling ended (deadline or schedule)${status}`,
      undefined,
      `The run goes on: keep polling with Maestro.poll("${this.runId}") and a longer deadline.`
    )
  }
}

/**
 * Every error an operation of this package can fail with.
 *
 * @since 0.1.0
 * @category errors
 */
export type StudioError = RequestError | RunFailed | PollTimeout

/**
 * Every error one request to the service can fail with: what `Chat.create`, `Chat.stream`,
 * `Maestro.create`, `Maestro.retrieve` and the `Assistants` calls fail with. Polling adds `RunFailed` and
 * `PollTimeout`.
 *
 * @since 0.1.0
 * @category errors
 */
export type RequestError =
  | ValidationError
  | AuthError
  | RateLimit
  | NotFound
  | ApiError
  | TransportError
  | TimeoutError
  | DecodeError

/**
 * The schema of `StudioError`, for decoding errors sent across a boundary.
 *
 * @since 0.1.0
 * @category schemas
 */
export const StudioError = Schema.Union(
  ValidationError,
  AuthError,
  RateLimit,
  NotFound,
  ApiError,
  TransportError,
  TimeoutError,
  DecodeError,
  RunFailed,
  PollTimeout
)

/**
 * Whether retrying the same request may succeed: connection failures, attempt timeouts, 408, 409, 429, 5xx.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isRetryable = (error: StudioError): boolean => {
  switch (error._tag) {
    case "TransportError":
      return true
    case "TimeoutError":
      return error.phase === "attempt"
    case "RateLimit":
      return true
    case "ApiError":
      return error.status === 408 || error.status === 409 || error.status >= 500
    default:
      return false
  }
}
