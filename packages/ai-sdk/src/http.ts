/**
 * One request to the service over `fetch`: sent only when not already aborted, redirects never followed (so
 * the API key goes nowhere else), a non-2xx answer read (its first 8 KiB) into the AI SDK's `APICallError`
 * by the core's status rules, and a body read within a size limit.
 */
import { APICallError } from "@ai-sdk/provider"
import { formatSize, tooLargeReason } from "studio-effect-core/bytes/sizeLimits"
import {
  apiErrorMessage,
  authMessage,
  decodeMessage,
  isRetryableFailure,
  notFoundMessage,
  rateLimitMessage,
  transportMessage,
  validationMessage
} from "studio-effect-core/failure/errorMessages"
import {
  describeResponseError,
  requestIdOf,
  type ResponseErrorDescription
} from "studio-effect-core/wire/responseErrors"

/** How much of an error's body is read (and kept): 8 KiB. */
const errorBodyLimit = 8 * 1024

/** What a request needs from the provider's settings. */
export interface Connection {
  readonly url: (path: string) => string
  readonly headers: (callHeaders: Record<string, string | undefined> | undefined) => Record<string, string>
  readonly fetch: typeof globalThis.fetch
  /** The largest answer read whole (and the most bytes a stream carries). */
  readonly maxResponseSize: number
  /** The largest event of a stream. */
  readonly maxEventSize: number
}

/** A request: its operation (for messages), method, path, body and the values the body was made of. */
export interface Request {
  readonly operation: string
  readonly method: "GET" | "POST" | "DELETE"
  readonly path: string
  readonly body?: string | Uint8Array | undefined
  readonly contentType?: string | undefined
  readonly accept?: string | undefined
  readonly requestBodyValues: unknown
  readonly headers?: Record<string, string | undefined> | undefined
  readonly abortSignal?: AbortSignal | undefined
}

/** An answer with a 2xx status, and its headers by lower-case name. */
export interface Answer {
  readonly url: string
  readonly response: Response
  readonly responseHeaders: Record<string, string>
}

/** The headers of a response as a record. */
const headersOf = (response: Response): Record<string, string> => {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  return headers
}

/** The message of a non-2xx answer, in the core's words (what happened, the request id, what to do). */
const errorMessage = (operation: string, description: ResponseErrorDescription): string => {
  switch (description._tag) {
    case "ValidationError":
      return validationMessage({
        operation,
        source: "service",
        issues: description.issues,
        status: description.status,
        requestId: description.requestId
      })
    case "AuthError":
      return authMessage(description)
    case "NotFound":
      return notFoundMessage(description)
    case "RateLimit":
      return rateLimitMessage({
        detail: description.detail,
        requestId: description.requestId,
        retryAfter: description.retryAfterMillis === undefined
          ? undefined
          : `${Math.ceil(description.retryAfterMillis / 1000)}s`
      })
    case "ApiError":
      return apiErrorMessage(description)
  }
}

/** Reads at most `limit` bytes of a body; `undefined` past the limit (the rest is left unread and cancelled). */
export const readLimited = async (response: Response, limit: number): Promise<Uint8Array | undefined> => {
  const body = response.body
  if (body === null) return new Uint8Array(0)
  const reader = body.getReader()
  const parts: Array<Uint8Array> = []
  let size = 0
  try {
    while (true) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > limit) return undefined
      parts.push(value)
    }
  } finally {
    reader.cancel().catch(() => {})
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const part of parts) {
    bytes.set(part, offset)
    offset += part.byteLength
  }
  return bytes
}

/** The start of an error's body as text (at most 8 KiB, cut where the limit falls). */
const errorBody = async (response: Response): Promise<string> => {
  const body = response.body
  if (body === null) return ""
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let text = ""
  try {
    while (text.length < errorBodyLimit) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
  } catch {
    // what was read is enough to describe the error
  } finally {
    reader.cancel().catch(() => {})
  }
  return text.slice(0, errorBodyLimit)
}

/** The error of an answer that is not what the interface describes (`reason` says how), never retried. */
export const unexpectedAnswer = (
  answer: { readonly url: string; readonly responseHeaders?: Record<string, string> | undefined },
  request: Pick<Request, "operation" | "requestBodyValues">,
  reason: string,
  cause?: unknown
): APICallError =>
  new APICallError({
    message: decodeMessage({
      operation: request.operation,
      reason,
      requestId: answer.responseHeaders === undefined ? undefined : requestIdOf(answer.responseHeaders)
    }),
    url: answer.url,
    requestBodyValues: request.requestBodyValues,
    ...(answer.responseHeaders === undefined ? {} : { responseHeaders: answer.responseHeaders }),
    isRetryable: false,
    cause
  })

/** The error of an answer larger than `limit`, the option that sets it named. */
export const tooLarge = (
  answer: { readonly url: string; readonly responseHeaders?: Record<string, string> | undefined },
  request: Pick<Request, "operation" | "requestBodyValues">,
  option: "maxResponseSize" | "maxEventSize",
  limit: number
): APICallError => unexpectedAnswer(answer, request, tooLargeReason(option, limit))

/** The error of a connection that failed (refused, reset, cut off), which a retry may get past. */
export const transportFailure = (
  url: string,
  request: Pick<Request, "method" | "requestBodyValues">,
  reason: string,
  cause: unknown
): APICallError =>
  new APICallError({
    message: transportMessage({ method: request.method, url, reason }),
    url,
    requestBodyValues: request.requestBodyValues,
    isRetryable: true,
    cause
  })

/** Whether an error is the abort of `signal` (its reason, or the `AbortError` fetch throws). */
const isAbort = (error: unknown, signal: AbortSignal | undefined): boolean =>
  signal?.aborted === true || (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError"))

/**
 * Sends a request and gives its 2xx answer, or throws: the signal's reason when aborted (before sending or
 * while waiting for headers), `APICallError` for a non-2xx answer or a failed connection.
 */
export const send = async (connection: Connection, request: Request): Promise<Answer> => {
  const signal = request.abortSignal
  signal?.throwIfAborted()
  const url = connection.url(request.path)
  const headers = connection.headers(request.headers)
  if (request.contentType !== undefined) headers["content-type"] = request.contentType
  headers["accept"] = request.accept ?? "application/json"
  let response: Response
  try {
    response = await connection.fetch(url, {
      method: request.method,
      headers,
      redirect: "manual",
      ...(request.body === undefined ? {} : { body: request.body as BodyInit }),
      ...(signal === undefined ? {} : { signal })
    })
  } catch (cause) {
    if (isAbort(cause, signal)) throw signal?.reason ?? cause
    throw transportFailure(url, request, cause instanceof Error ? cause.message : String(cause), cause)
  }
  const responseHeaders = headersOf(response)
  if (response.status >= 200 && response.status < 300) return { url, response, responseHeaders }
  const body = await errorBody(response)
  if (signal?.aborted === true) throw signal.reason
  const description = describeResponseError({
    method: request.method,
    url,
    status: response.status,
    headers: responseHeaders,
    body,
    now: Date.now()
  })
  throw new APICallError({
    message: errorMessage(request.operation, description),
    url,
    requestBodyValues: request.requestBodyValues,
    statusCode: response.status,
    responseHeaders,
    responseBody: body,
    isRetryable: isRetryableFailure({ _tag: description._tag, status: response.status }),
    data: description
  })
}

/** Sends a request and parses its JSON answer, read whole within `maxResponseSize`. */
export const sendJson = async (
  connection: Connection,
  request: Request
): Promise<Answer & { readonly value: unknown }> => {
  const answer = await send(connection, request)
  let bytes: Uint8Array | undefined
  try {
    bytes = await readLimited(answer.response, connection.maxResponseSize)
  } catch (cause) {
    if (isAbort(cause, request.abortSignal)) throw request.abortSignal?.reason ?? cause
    throw transportFailure(answer.url, request, cause instanceof Error ? cause.message : String(cause), cause)
  }
  if (bytes === undefined) throw tooLarge(answer, request, "maxResponseSize", connection.maxResponseSize)
  const text = new TextDecoder().decode(bytes)
  try {
    return { ...answer, value: JSON.parse(text) as unknown }
  } catch (cause) {
    throw unexpectedAnswer(answer, request, `the body is not JSON (${formatSize(bytes.byteLength)})`, cause)
  }
}
