/** Shims for the conformance suite's reliability tests. */
import type * as HttpClientError from "effect/http/HttpClientError"
import type { transports } from "./effect.js"

/** The client's SSE decoder as a stream of each event's `data` turned by `parse`, up to `[DONE]`. */
export { decodeEvents } from "../../src/internal/stream/sse.js"

/** The AI toolkit's `LanguageModel` module, whose provider `studio-effect/ai` implements (`effect/ai` here). */
export * as LanguageModel from "effect/ai/LanguageModel"

/** Whether an HTTP client's error is a failure of the transport (the connection), not of an answer. */
export const isHttpTransportError = (error: HttpClientError.HttpClientError): boolean =>
  error.reason._tag === "TransportError"

/** The transports that never send a URL's `#fragment`: on this line, all of them. */
export const fragmentFreeTransports: ReadonlyArray<keyof typeof transports> = ["fetch", "undici", "sdk-undici"]
