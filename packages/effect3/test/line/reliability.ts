/** Shims for the conformance suite's reliability tests. */
import type { transports } from "./effect.js"

/** The AI toolkit's `LanguageModel` module, whose provider `studio-effect/ai` implements (`@effect/ai` here). */
export * as LanguageModel from "@effect/ai/LanguageModel"

/**
 * The transports that never send a URL's `#fragment`: `studio-effect/undici` and fetch. The platform's
 * undici client of this line (`NodeHttpClient.layerUndici`) sends it with the path.
 */
export const fragmentFreeTransports: ReadonlyArray<keyof typeof transports> = ["fetch", "sdk-undici"]
