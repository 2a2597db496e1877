/**
 * A failure of the transport (connection refused or reset, DNS, TLS, a body cut off) as a
 * `TransportError`: the method and URL of the request as sent, and the innermost cause, which says what
 * failed. Never the request's headers.
 */
import type * as HttpClientError from "@effect/platform/HttpClientError"
import { TransportError } from "../../StudioError.js"

/** The innermost cause's code and message (`ECONNREFUSED`, "other side closed"). */
const rootCause = (cause: unknown): string | undefined => {
  let current = cause
  let found: string | undefined
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown }
    if (typeof message === "string" && message !== "") {
      found = typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message
    }
    current = (current as { cause?: unknown }).cause
  }
  return found
}

/**
 * The codes of failures to connect: the request was never sent, so the service cannot have acted on it.
 * A reset or a timeout once connected is not one of them: the service may have received the request.
 */
const notConnected: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT"
])

/** Whether a cause (or one it wraps) is a failure to connect. */
const isNotConnected = (cause: unknown): boolean => {
  let current = cause
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string" && notConnected.has(code)) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/** The `TransportError` of a transport failure; the address is the request's as sent (base URL included). */
export const transportError = (error: HttpClientError.HttpClientError): TransportError => {
  const detail = rootCause(error.cause) ?? error.description
  return new TransportError({
    method: error.request.method,
    url: error.request.url,
    reason: `${error.reason.toLowerCase()} error${detail === undefined ? "" : `: ${detail}`}`,
    ...(error._tag === "RequestError" && isNotConnected(error.cause) ? { unsent: true } : {})
  })
}
