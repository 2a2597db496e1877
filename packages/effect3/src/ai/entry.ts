/**
 * The module `studio-effect/ai` resolves to at run time: it loads the provider (`./index.js`, whose types the
 * package's `exports` give) and, when `@effect/ai` is missing, fails at the import with the line that
 * installs it, rather than with the module linker's bare `Cannot find package`.
 */
import { loadWithPeer } from "studio-effect-core/platform/optionalPeer"

const provider = await loadWithPeer(() => import("./index.js"), {
  user: "studio-effect/ai",
  peer: "@effect/ai",
  install: "npm install @effect/ai@~0.37.0"
})

export const StudioLanguageModel = provider.StudioLanguageModel
