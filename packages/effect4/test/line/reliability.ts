/** Shims for the conformance suite's reliability tests. */
import type { transports } from "./effect.js"

/** The client's SSE decoder as a stream of each event's `data` turned by `parse`, up to `[DONE]`. */
export { decodeEvents } from "../../src/internal/stream/sse.js"

/** The AI toolkit's `LanguageModel` module, whose provider `studio-effect/ai` implements (`effect/ai` here). */
export * as LanguageModel from "effect/ai/LanguageModel"

/** The transports that never send a URL's `#fragment`: on this line, all of them. */
export const fragmentFreeTransports: ReadonlyArray<keyof typeof transports> = ["fetch", "undici"]
