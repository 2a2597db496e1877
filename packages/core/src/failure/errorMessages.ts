/**
 * What each error of the SDK says: what happened, the request id when the service sent one, then what to do
 * next (every message ends with it). Each Effect line's error classes read their message from here; a
 * duration comes already written (`10s`), as the line's `Duration.format` writes it.
 */
import { redactUrl } from "../url/redactUrl.js"
import { showValue } from "../validate/issues.js"

/** `what` (without a full stop; one is added), the request id when there is one, and what to do next. */
const say = (what: string, requestId: string | undefined, next: string): string =>
  `${what}${requestId === undefined ? "" : ` (request id ${requestId})`}. ${next}`

/** A sentence of the service or of a cause, without its closing full stop. */
const clause = (text: string): string => text.trim().replace(/\.$/, "")

/** A request that breaks a rule of the interface: found before sending (`client`) or by the service. */
export const validationMessage = (error: {
  readonly operation: string
  readonly source: "client" | "service"
  readonly issues: ReadonlyArray<{ readonly path: string; readonly message: string }>
  readonly status?: number | undefined
  readonly requestId?: string | undefined
}): string => {
  const head = error.source === "client"
    ? `Invalid ${error.operation} request`
    : `${error.status ?? 422} The service rejected the ${error.operation} request`
  const lines = error.issues.map((issue) => `  - ${issue.path}: ${issue.message}`)
  const next = error.source === "client"
    ? "Fix the fields listed above; nothing was sent."
    : "Fix the fields listed above before sending again; retrying as is gives the same answer."
  return say([`${head}:`, ...lines].join("\n"), error.requestId, next)
}

/** Credentials refused (401/403), or no key configured (no status). */
export const authMessage = (error: {
  readonly status?: number | undefined
  readonly detail: string
  readonly requestId?: string | undefined
}): string =>
  say(
    `${error.status === undefined ? "" : `${error.status} `}${error.detail.replace(/\.$/, "")}`,
    error.requestId,
    "Check the API key (STUDIO_API_KEY, or the apiKey option) and its permissions."
  )

/** A 429, with the delay the service asked for when it named one. */
export const rateLimitMessage = (error: {
  readonly detail: string
  readonly retryAfter: string | undefined
  readonly requestId?: string | undefined
}): string => {
  const next = error.retryAfter === undefined
    ? "Wait a little and call again, or lower your concurrency."
    : `Retry after ${error.retryAfter}, or lower your concurrency.`
  return say(`429 ${error.detail.replace(/\.$/, "")}`, error.requestId, next)
}

/** Whether a 404's detail is the service's generic `Not Found` (the address is unknown, not an id in it). */
export const isUnknownRoute = (detail: string): boolean => /^not found\.?$/i.test(detail.trim())

/** A 404, naming the request's address so that a wrong `baseUrl` shows. */
export const notFoundMessage = (error: {
  readonly detail: string
  readonly requestId?: string | undefined
  readonly method?: string | undefined
  readonly url?: string | undefined
}): string => {
  const where = error.url === undefined
    ? ""
    : ` (${error.method === undefined ? "" : `${error.method} `}${redactUrl(error.url)})`
  const next = isUnknownRoute(error.detail)
    ? "Check baseUrl: it is the service's address without a path such as /studio/v1 (for example https://api.ai21.com)."
    : "Check the id, and that it belongs to this API key's organisation."
  return say(`404 ${error.detail.replace(/\.$/, "")}${where}`, error.requestId, next)
}

/** Any other non-200 answer: its `detail`, or the start of its body. */
export const apiErrorMessage = (error: {
  readonly status: number
  readonly detail?: unknown
  readonly body: string
  readonly requestId?: string | undefined
}): string => {
  const detail = typeof error.detail === "string"
    ? error.detail
    : error.detail === undefined
    ? error.body.slice(0, 200)
    : JSON.stringify(error.detail).slice(0, 200)
  const next = error.status >= 300 && error.status < 400
    ? "Set baseUrl to the address that answers directly, if you trust it."
    : error.status >= 500 || error.status === 408 || error.status === 409
    ? "The service had a problem: retry later, and report the status and request id if it persists."
    : "Check the request and baseUrl; report the status and request id if they are right."
  const said = clause(detail)
  return say(said === "" ? `${error.status} (no detail)` : `${error.status} ${said}`, error.requestId, next)
}

/** A request without a complete answer: connection refused or reset, DNS, TLS, or a body cut off. */
export const transportMessage = (error: {
  readonly method: string
  readonly url: string
  readonly reason: string
}): string => {
  const next = /before \[DONE\]/.test(error.reason)
    ? "Retry the call (a stream is not retried for you once it has started)."
    : "Check that the service is reachable at this address (network, proxy, TLS), then retry."
  return say(`${error.method} ${redactUrl(error.url)} failed: ${clause(error.reason)}`, undefined, next)
}

/** An attempt past its timeout, or a stream idle past its idle timeout (`timeout` as written, `10s`). */
export const timeoutMessage = (error: {
  readonly phase: "attempt" | "stream-idle"
  readonly timeout: string
  readonly method: string
  readonly url: string
}): string => {
  const what = error.phase === "attempt" ? "did not answer" : "sent nothing"
  const next = error.phase === "attempt"
    ? "Retry, or raise the timeout option for long answers."
    : "Retry, or raise the streamIdleTimeout option for slow streams."
  return say(`${error.method} ${redactUrl(error.url)} ${what} within ${error.timeout}`, undefined, next)
}

/** A 200 whose body does not match the interface, or a malformed event stream. */
export const decodeMessage = (error: {
  readonly operation: string
  readonly reason: string
  readonly requestId?: string | undefined
}): string =>
  say(
    `Unexpected ${error.operation} response: ${clause(error.reason)}`,
    error.requestId,
    "Check that baseUrl points at the Studio service; if it does, report this with the request id."
  )

/** A polled run that ended `failed`. */
export const runFailedMessage = (runId: string, reason: string): string =>
  say(
    `Run ${runId} failed: ${clause(reason)}`,
    undefined,
    "Fix what the reason names (often a tool or a requirement) and create a new run."
  )

/** Polling that ended before the run did; `lastStatus` is the status last seen. */
export const pollTimeoutMessage = (runId: string, lastStatus: string | undefined): string =>
  say(
    `Run ${runId} did not reach a terminal status before polling ended (deadline or schedule)${
      lastStatus === undefined ? "" : ` (last status: ${lastStatus})`
    }`,
    undefined,
    `The run goes on: keep polling with Maestro.poll("${runId}") and a longer deadline.`
  )

/** Durable waiting that passed its deadline before the batch finished; `lastStatus` is the status last seen. */
export const batchWaitTimeoutMessage = (batchId: string, lastStatus: string): string =>
  say(
    `Batch ${batchId} did not finish before waiting ended (deadline) (last status: ${lastStatus})`,
    undefined,
    `The batch goes on: wait again with DurableBatches.wait and a longer deadline, or read it with Batches.retrieve("${batchId}").`
  )

/** A tool call the tool loop cannot run: arguments that are not JSON, or a tool no handler answers. */
export const toolCallMessage = (error: {
  readonly reason: "InvalidArguments" | "UnknownTool" | "TooManyCalls" | "RepeatedCallId"
  readonly toolName: string
  readonly toolCallId: string
  readonly arguments: string
  readonly round: number
  readonly calls?: number | undefined
}): string => {
  switch (error.reason) {
    case "UnknownTool":
      return `The model called ${showValue(error.toolName)} (call ${error.toolCallId}, round ${error.round}), ` +
        "which no handler answers: give runTools a handler for every tool of the request"
    case "InvalidArguments":
      return `The arguments of the call ${error.toolCallId} to ${showValue(error.toolName)} (round ${error.round}) ` +
        `are not JSON: ${showValue(error.arguments)}`
    case "TooManyCalls":
      return `The model made ${error.calls ?? "too many"} tool calls in round ${error.round}, more than runTools ` +
        "runs for one answer: raise maxCallsPerRound to run them all"
    case "RepeatedCallId":
      return `The model named the call ${showValue(error.toolCallId)} (to ${showValue(error.toolName)}, round ` +
        `${error.round}) again: a call's id is answered once, so none of that round's calls ran`
  }
}

/** The fields of an error that decide whether sending the same request again may succeed. */
export interface RetryFacts {
  readonly _tag: string
  readonly phase?: string | undefined
  readonly status?: number | undefined
}

/** Whether retrying may succeed: connection failures, attempt timeouts, 408, 409, 429, 5xx. */
export const isRetryableFailure = (error: RetryFacts): boolean => {
  switch (error._tag) {
    case "TransportError":
    case "RateLimit":
      return true
    case "TimeoutError":
      return error.phase === "attempt"
    case "ApiError":
      return error.status !== undefined && (error.status === 408 || error.status === 409 || error.status >= 500)
    default:
      return false
  }
}
