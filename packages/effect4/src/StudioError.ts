/**
 * The errors of every operation, as `Schema.TaggedError` classes, and their union `StudioError`; and
 * `reportInOneLine`, which makes a program's `runMain` print its failure as one line.
 *
 * None of them holds the API key, a request's headers, or a tool's credential headers: they carry only
 * what the service said (status, `detail`, request id, the answer's headers, each scrubbed of the request's
 * secrets) and what the caller needs to act. Outside Effect they read as plain values (`retryAfterMs`,
 * `headers`) and print as Node errors: `console.error(error)` shows the class name and message, then the
 * status, request id and `retryAfterMs`.
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import * as Messages from "studio-effect-core/failure/errorMessages"
import { nodeInspect, type PrintedError, printedError } from "studio-effect-core/failure/errorPrinting"
import { failureLine } from "studio-effect-core/failure/failureLine"
import { Batch } from "./BatchSchema.js"
import { MaestroRun } from "./MaestroSchema.js"

/** A duration as people write it: `10s`, `1m 30s`, `250ms`. */
const formatDuration = (duration: Duration.Duration): string => Duration.format(duration)

/**
 * `Schema.TaggedError`, built without stack frames. An error is made inside this package and Effect's runtime,
 * whose frames tell the caller nothing; without them its stack is its first line (`AuthError: 401 ...`), so
 * Effect's own printing of a failure (`Cause.pretty`, a logged cause, `runMain`'s report) shows the error on
 * one line, followed by the span of the operation that failed (`at studio.chat.create`).
 */
const TaggedError = <Self>() =>
<Tag extends string, const Fields extends Schema.Struct.Fields>(
  tag: Tag,
  fields: Fields
): Schema.Class<Self, Schema.TaggedStruct<Tag, Fields>, Cause.YieldableError> => {
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
    /** `console.error(error)` and `util.inspect(error)`: as Node prints an error (see `printedError`). */
    [nodeInspect](): Error {
      return printedError(this as unknown as PrintedError)
    }
  }
  return WithoutFrames as unknown as Schema.Class<Self, Schema.TaggedStruct<Tag, Fields>, Cause.YieldableError>
}

/**
 * The headers of the answer that an error stands for, as a plain object (names in lower case); absent when
 * the error was not an answer of the service.
 */
const answerHeaders = Schema.optional(Schema.Record(Schema.String, Schema.String))

/** The delay the service asked for, in milliseconds: what a `Duration` is outside Effect. */
const millisOf = (duration: Duration.Duration | undefined): number | undefined =>
  duration === undefined ? undefined : Duration.toMillis(duration)

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
  source: Schema.Literals(["client", "service"]),
  issues: Schema.Array(ValidationIssue),
  status: Schema.optional(Schema.Number),
  requestId: Schema.optional(Schema.String),
  headers: answerHeaders
}) {
  override get message(): string {
    return Messages.validationMessage(this)
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
  requestId: Schema.optional(Schema.String),
  headers: answerHeaders
}) {
  override get message(): string {
    return Messages.authMessage(this)
  }
}

/**
 * The service answered 429. `retryAfter` is the delay it asked for, when it sent one (`retryAfterMs` in
 * milliseconds); `headers` are the answer's.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimit extends TaggedError<RateLimit>()("RateLimit", {
  detail: Schema.String,
  retryAfter: Schema.optional(Schema.Duration),
  requestId: Schema.optional(Schema.String),
  headers: answerHeaders
}) {
  /** The answer's status: always 429. */
  get status(): 429 {
    return 429
  }
  /** The delay the service asked for, in milliseconds, when it named one. */
  get retryAfterMs(): number | undefined {
    return millisOf(this.retryAfter)
  }
  override get message(): string {
    const retryAfter = this.retryAfter === undefined ? undefined : formatDuration(this.retryAfter)
    return Messages.rateLimitMessage({ ...this, retryAfter })
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
  url: Schema.optional(Schema.String),
  headers: answerHeaders
}) {
  /** The answer's status: always 404. */
  get status(): 404 {
    return 404
  }
  /** Whether the address itself is unknown (the service's generic `Not Found`), not an id in it. */
  get unknownRoute(): boolean {
    return Messages.isUnknownRoute(this.detail)
  }
  override get message(): string {
    return Messages.notFoundMessage(this)
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
  retryAfter: Schema.optional(Schema.Duration),
  headers: answerHeaders
}) {
  /** The delay the service asked for, in milliseconds, when it named one. */
  get retryAfterMs(): number | undefined {
    return millisOf(this.retryAfter)
  }
  override get message(): string {
    return Messages.apiErrorMessage(this)
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
    return Messages.transportMessage(this)
  }
}

/**
 * An attempt took longer than its timeout, or a stream produced nothing for longer than its idle timeout.
 *
 * @since 0.1.0
 * @category errors
 */
export class TimeoutError extends TaggedError<TimeoutError>()("TimeoutError", {
  phase: Schema.Literals(["attempt", "stream-idle"]),
  timeout: Schema.Duration,
  method: Schema.String,
  url: Schema.String
}) {
  override get message(): string {
    return Messages.timeoutMessage({ ...this, timeout: formatDuration(this.timeout) })
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
    return Messages.decodeMessage(this)
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
    return Messages.runFailedMessage(this.run.id, this.reason)
  }
}

/**
 * Polling a run passed its deadline; `lastRun` is the last snapshot seen. Waiting on a batch
 * (`DurableBatches.wait`) that passed its deadline gives it too: then `runId` is the batch's id and
 * `lastBatch` the batch as last retrieved.
 *
 * @since 0.1.0
 * @category errors
 */
export class PollTimeout extends TaggedError<PollTimeout>()("PollTimeout", {
  runId: Schema.String,
  lastRun: Schema.optional(MaestroRun),
  /** @since 1.1.0 */
  lastBatch: Schema.optional(Batch)
}) {
  override get message(): string {
    return this.lastBatch === undefined
      ? Messages.pollTimeoutMessage(this.runId, this.lastRun?.status)
      : Messages.batchWaitTimeoutMessage(this.runId, this.lastBatch.status)
  }
}

/**
 * A tool call the loop cannot run: its `arguments` are not JSON (`InvalidArguments`), no handler has its
 * function name (`UnknownTool`), the answer made more calls than `maxCallsPerRound` (`TooManyCalls`), or it
 * names an id already answered or named twice (`RepeatedCallId`). The loop stops with it before any handler
 * of that round runs; nothing of that round is sent back.
 *
 * @since 0.1.0
 * @category errors
 */
export class ToolCallError extends Schema.TaggedError<ToolCallError>()("ToolCallError", {
  reason: Schema.Literals(["InvalidArguments", "UnknownTool", "TooManyCalls", "RepeatedCallId"]),
  toolName: Schema.String,
  toolCallId: Schema.String,
  arguments: Schema.String,
  round: Schema.Number,
  /** With `TooManyCalls`, how many calls the answer made. */
  calls: Schema.optional(Schema.Number)
}) {
  override get message(): string {
    return Messages.toolCallMessage(this)
  }
  /** `console.error(error)` and `util.inspect(error)`: as Node prints an error (see `printedError`). */
  [nodeInspect](): Error {
    return printedError(this)
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
export const StudioError = Schema.Union([
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
])

/**
 * Whether retrying the same request may succeed: connection failures, attempt timeouts, 408, 409, 429, 5xx.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isRetryable = (error: StudioError): boolean => Messages.isRetryableFailure(error)

/** Prints a failed program's failure (see `reportInOneLine`), then gives the exit code Effect gives. */
const teardownInOneLine: Runtime.Teardown = (exit, onExit) => {
  if (Exit.isFailure(exit) && !Cause.hasInterruptsOnly(exit.cause)) {
    const failures = exit.cause.reasons.filter(Cause.isFailReason).map((reason) => reason.error)
    // a defect is a bug, not a failure the program expects: its stack is what finds it
    console.error(failures.length > 0 ? failures.map(failureLine).join("\n") : Cause.pretty(exit.cause))
  }
  Runtime.defaultTeardown(exit, onExit)
}

/**
 * The options of `NodeRuntime.runMain` (or another platform's `runMain`) that print a program's failure as
 * one line on stderr, `AuthError: 401 Forbidden ... Check the API key ...`: the error's tag and its message
 * (which says what to do next), in place of Effect's log of the whole cause on stdout. The exit code is
 * Effect's (1 when the program fails, 130 when it is interrupted). A defect (a bug, not a failure the program
 * expects) is printed as Effect prints it, with its stack. `NodeRuntime.runMain(program, StudioError.reportInOneLine)`.
 *
 * @since 0.1.0
 * @category running
 */
export const reportInOneLine: {
  readonly disableErrorReporting: true
  readonly teardown: Runtime.Teardown
} = { disableErrorReporting: true, teardown: teardownInOneLine }
