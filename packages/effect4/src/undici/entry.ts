/**
 * The module `studio-effect/undici` resolves to at run time: it loads the transport (`./index.js`, whose types
 * the package's `exports` give) and, when `undici` is missing, fails at the import with the line that
 * installs it, rather than with the module linker's bare `Cannot find package`.
 */
import { loadWithPeer } from "studio-effect-core/platform/optionalPeer"

const transport = await loadWithPeer(() => import("./index.js"), {
  user: "studio-effect/undici",
  peer: "undici",
  install: "npm install undici@^8"
})

export const UndiciHttpClient = transport.UndiciHttpClient
