/** Shims for the conformance suite's reliability tests. */
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { streamOf } from "../../src/internal/stream/read.js"
import { decodeEventsWith, type DecodeOptions, type EventError } from "../../src/internal/stream/sse.js"
import type { transports } from "./effect.js"

/**
 * The client's SSE decoder as a stream of each event's `data` turned by `parse`, up to `[DONE]` (its reads
 * made a stream by `streamOf` here; Effect 4's `decodeEvents` is that stream).
 */
export const decodeEvents = <A, E2>(
  method: string,
  url: string,
  parse: (data: string) => A | EventError<E2>,
  options: DecodeOptions = {}
) =>
<E, R>(bytes: Stream.Stream<Uint8Array, E, R>) =>
  Stream.unwrapScoped(Effect.map(decodeEventsWith(method, url, parse, options)(bytes), streamOf))

/** The AI toolkit's `LanguageModel` module, whose provider `studio-effect/ai` implements (`@effect/ai` here). */
export * as LanguageModel from "@effect/ai/LanguageModel"

/** Whether an HTTP client's error is a failure of the transport (the connection), not of an answer. */
export const isHttpTransportError = (error: HttpClientError.HttpClientError): boolean =>
  error._tag === "RequestError" && error.reason === "Transport"

/**
 * The transports that never send a URL's `#fragment`: `studio-effect/undici` and fetch. The platform's
 * undici client of this line (`NodeHttpClient.layerUndici`) sends it with the path.
 */
export const fragmentFreeTransports: ReadonlyArray<keyof typeof transports> = ["fetch", "sdk-undici"]
