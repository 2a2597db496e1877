/**
 * The SDK's modules the commands run, each loaded when a command first needs it: the command line itself
 * (its flags, `--help`, `--version` and errors) loads without them.
 *
 * Measured reason (`npm run bench`, scenario `command`, Node.js 24): loaded with the command line, they made
 * `studio-effect --version` take 310 ms from spawn to exit; the command line alone loads in about 230 ms.
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
