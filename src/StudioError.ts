/**
 * The errors of every operation, as `Schema.TaggedError` classes, and their union `StudioError`.
 *
 * None of them holds the API key, a request's headers, or a tool's credential headers: they carry only
 * what the service said (status, `detail`, request id) and what the caller needs to act.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { MaestroRun } from "./MaestroSchema.js"

const withRequestId = (text: string, requestId: string | undefined) =>
  requestId === undefined ? text : `${text} (request id ${requestId})`

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
    return withRequestId([`${head}:`, ...lines].join("\n"), this.requestId)
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
    return withRequestId(
      `${status}${this.detail} Check the API key (STUDIO_API_KEY) and its permissions.`,
      this.requestId
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
  override get message(): string {
    const wait = this.retryAfter === undefined ? "" : ` Retry after ${this.retryAfter.toString()}.`
    return withRequestId(`429 ${this.detail}${wait}`, this.requestId)
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
  requestId: Schema.optional(Schema.String)
}) {
  override get message(): string {
    return withRequestId(`404 ${this.detail}`, this.requestId)
  }
}

/**
 * Any other non-200 answer: its status, the parsed `detail` and the raw body.
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
    return withRequestId(`${this.status} ${detail}`, this.requestId)
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
    return `${this.method} ${this.url} failed: ${this.reason}`
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
    return `${this.method} ${this.url} ${what} within ${this.timeout.toString()}`
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
    return withRequestId(`Unexpected ${this.operation} response: ${this.reason}`, this.requestId)
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
    return `Run ${this.run.id} failed: ${this.reason}`
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
    return `Run ${this.runId} did not reach a terminal status before polling ended (deadline or schedule)${status}`
  }
}

/**
 * Every error an operation of this package can fail with.
 *
 * @since 0.1.0
 * @category errors
 */
export type StudioError =
  | ValidationError
  | AuthError
  | RateLimit
  | NotFound
  | ApiError
  | TransportError
  | TimeoutError
  | DecodeError
  | RunFailed
  | PollTimeout

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
