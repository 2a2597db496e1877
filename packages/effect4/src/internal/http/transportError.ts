/**
 * A failure of the transport (connection refused or reset, DNS, TLS, a body cut off) as a
 * `TransportError`: the method and URL of the request as sent, and the innermost cause, which says what
 * failed. Never the request's headers.
 */
import type * as HttpClientError from "effect/http/HttpClientError"
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

/** `TransportError` → `transport`, `DecodeError` → `decode`: what failed, as the error's message says it. */
const kindOf = (tag: HttpClientError.HttpClientErrorReason["_tag"]): string =>
  (tag.endsWith("Error") ? tag.slice(0, -5) : tag).toLowerCase()

/** The `TransportError` of a transport failure; the address is the request's as sent (base URL included). */
export const transportError = (error: HttpClientError.HttpClientError): TransportError => {
  const reason = error.reason
  const detail = rootCause(reason.cause) ?? reason.description
  return new TransportError({
    method: reason.request.method,
    url: reason.request.url,
    reason: `${kindOf(reason._tag)} error${detail === undefined ? "" : `: ${detail}`}`
  })
}
