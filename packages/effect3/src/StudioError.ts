/**
 * The errors of every operation, as `Schema.TaggedError` classes, and their union `StudioError`; and
 * `reportInOneLine`, which makes a program's `runMain` print its failure as one line.
 *
 * None of them holds the API key, a request's headers, or a tool's credential headers: they carry only
 * what the service said (status, `detail`, request id) and what the caller needs to act.
 *
 * @since 0.1.0
 */
import { defaultTeardown, type Teardown } from "@effect/platform/Runtime"
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import { failureLine } from "studio-effect-core/failure/failureLine"
import { redactUrl } from "studio-effect-core/url/redactUrl"
import { showValue } from "./internal/schema/issues.js"
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
 * `Schema.TaggedError`, built without stack frames. An error is made inside this package and Effect's runtime,
 * whose frames tell the caller nothing; without them its stack is its first line (`AuthError: 401 ...`), so
 * Effect's own printing of a failure (`Cause.pretty`, a logged cause, `runMain`'s report) shows the error on
 * one line, followed by the span of the operation that failed (`at studio.chat.create`).
 */
const TaggedError = <Self>() =>
<Tag extends string, Fields extends Schema.Struct.Fields>(
  tag: Tag,
  fields: Fields
): Schema.TaggedErrorClass<Self, Tag, { readonly _tag: Schema.tag<Tag> } & Fields> => {
  const Base = Schema.TaggedError<Self>()(tag, fields) as unknown as new(...args: ReadonlyArray<unknown>) => object
  class WithoutFrames extends Base {
    constructor(...args: ReadonlyArray<unknown>) {
      const limit = Error.stackTraceLimit
      Error.stackTraceLimit = 0
      try {
        super(...args)
      } finally {
        Error.stackTraceLimit = limit
      }
    }
  }
  return WithoutFrames as unknown as Schema.TaggedErrorClass<Self, Tag, { readonly _tag: Schema.tag<Tag> } & Fields>
}

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
export class ValidationError extends TaggedError<ValidationError>()("ValidationError", {
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
export class AuthError extends TaggedError<AuthError>()("AuthError", {
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
export class RateLimit extends TaggedError<RateLimit>()("RateLimit", {
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
export class NotFound extends TaggedError<NotFound>()("NotFound", {
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
export class ApiError extends TaggedError<ApiError>()("ApiError", {
  status: Schema.Number,
  detail: Schema.optional(Schema.Unknown),
  body: Schema.String,
  requestId: Schema.optional(Schema.String),
  /** The delay the service asked for (`retry-after-ms`, `Retry-After`), when it named one. */
  retryAfter: Schema.optional(Schema.DurationFromSelf)
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
export class TransportError extends TaggedError<TransportError>()("TransportError", {
  method: Schema.String,
  url: Schema.String,
  reason: Schema.String,
  /**
   * `true` when the request never reached the service (the connection was refused, the host not found or
   * not reachable), so that sending it again cannot repeat it.
   */
  unsent: Schema.optional(Schema.Boolean)
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
export class TimeoutError extends TaggedError<TimeoutError>()("TimeoutError", {
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
export class DecodeError extends TaggedError<DecodeError>()("DecodeError", {
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
export class RunFailed extends TaggedError<RunFailed>()("RunFailed", {
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
export class PollTimeout extends TaggedError<PollTimeout>()("PollTimeout", {
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
 * A tool call the loop cannot run: its `arguments` are not JSON (`InvalidArguments`), or no handler has
 * its function name (`UnknownTool`). The loop stops with it; nothing of that round is sent back.
 *
 * @since 0.1.0
 * @category errors
 */
export class ToolCallError extends Schema.TaggedError<ToolCallError>()("ToolCallError", {
  reason: Schema.Literal("InvalidArguments", "UnknownTool"),
  toolName: Schema.String,
  toolCallId: Schema.String,
  arguments: Schema.String,
  round: Schema.Number
}) {
  override get message(): string {
    return this.reason === "UnknownTool"
      ? `The model called ${showValue(this.toolName)} (call ${this.toolCallId}, round ${this.round}), ` +
        "which no handler answers: give runTools a handler for every tool of the request"
      : `The arguments of the call ${this.toolCallId} to ${showValue(this.toolName)} (round ${this.round}) ` +
        `are not JSON: ${showValue(this.arguments)}`
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

/** Prints a failed program's failure (see `reportInOneLine`), then gives the exit code Effect gives. */
const teardownInOneLine: Teardown = (exit, onExit) => {
  if (Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause)) {
    const failures = Chunk.toReadonlyArray(Cause.failures(exit.cause))
    // a defect is a bug, not a failure the program expects: its stack is what finds it
    console.error(
      failures.length > 0 ? failures.map(failureLine).join("\n") : Cause.pretty(exit.cause, { renderErrorCause: true })
    )
  }
  defaultTeardown(exit, onExit)
}

/**
 * The options of `NodeRuntime.runMain` (or another platform's `runMain`) that print a program's failure as
 * one line on stderr, `AuthError: 401 Forbidden ... Check the API key ...`: the error's tag and its message
 * (which says what to do next), in place of Effect's log of the whole cause on stdout. The exit code is
 * Effect's, 1 when the program fails. A defect (a bug, not a failure the program expects) is printed as
 * Effect prints it, with its stack. `NodeRuntime.runMain(program, StudioError.reportInOneLine)`.
 *
 * @since 0.1.0
 * @category running
 */
export const reportInOneLine: {
  readonly disableErrorReporting: true
  readonly teardown: Teardown
} = { disableErrorReporting: true, teardown: teardownInOneLine }
