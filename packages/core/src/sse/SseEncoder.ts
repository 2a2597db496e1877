/**
 * Server-sent events as the service frames them: `data: <json>` events separated by a blank line, ended by
 * `data: [DONE]`; and the `error` event a forwarded stream ends with when it failed. The SDK's forwarding
 * helpers and the reference service write every event through here.
 *
 * @since 0.1.0
 */
import { withoutOrigins } from "../url/redactUrl.js"

const encoder = new TextEncoder()

/**
 * The text of one event carrying a JSON value.
 *
 * @since 0.1.0
 * @category encoding
 */
export const eventText = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`

/**
 * One event carrying a JSON value.
 *
 * @since 0.1.0
 * @category encoding
 */
export const event = (value: unknown): Uint8Array => encoder.encode(eventText(value))

/**
 * The events of several values, in one write.
 *
 * @since 0.1.0
 * @category encoding
 */
export const events = (values: Iterable<unknown>): Uint8Array => {
  let text = ""
  for (const value of values) text += eventText(value)
  return encoder.encode(text)
}

/**
 * The event that ends a stream.
 *
 * @since 0.1.0
 * @category encoding
 */
export const done: Uint8Array = encoder.encode("data: [DONE]\n\n")

/**
 * The `error` event a forwarded stream ends with when the stream failed: `{"error":{"type","message"}}`,
 * the type the error's tag; the message shows each address by its path only, so the service's address
 * (nor anything in it) reaches no browser.
 *
 * @since 0.1.0
 * @category encoding
 */
export const errorEvent = (error: unknown): Uint8Array => {
  const tagged = typeof error === "object" && error !== null && "_tag" in error
  const type = tagged ? String((error as { _tag: unknown })._tag) : "Error"
  const message = withoutOrigins(error instanceof Error ? error.message : String(error))
  return encoder.encode(`event: error\ndata: ${JSON.stringify({ error: { type, message } })}\n\n`)
}
