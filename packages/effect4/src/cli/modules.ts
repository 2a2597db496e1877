/**
 * The SDK's modules the commands run, each loaded when a command first needs it: the command line itself
 * (its flags, `--help`, `--version` and errors) loads without them.
 *
 * Measured reason (`studio-effect --version`, Node.js 24, 20 runs paired): in the command's bundle
 * (scripts/bundle.mjs) each of these is a chunk of its own, and the start takes 0.61× the wall time (161
 * against 261 ms) of the same bundle holding them in its start module.
 */
import * as Effect from "effect/Effect"

export const Assistants = Effect.promise(() => import("../Assistants.js"))
export const Batches = Effect.promise(() => import("../Batches.js"))
export const Chat = Effect.promise(() => import("../Chat.js"))
export const Library = Effect.promise(() => import("../Library.js"))
export const Maestro = Effect.promise(() => import("../Maestro.js"))
export const Models = Effect.promise(() => import("../Models.js"))
export const Reference = Effect.promise(() => import("../reference/index.js"))
export const StudioClient = Effect.promise(() => import("../StudioClient.js"))
