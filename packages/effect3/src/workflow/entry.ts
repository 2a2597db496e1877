/**
 * The module `studio-effect/workflow` resolves to at run time: it loads the durable runs (`./index.js`, whose
 * types the package's `exports` give) and, when `@effect/workflow` is missing, fails at the import with the
 * line that installs it, rather than with the module linker's bare `Cannot find package`.
 */
import { loadWithPeer } from "studio-effect-core/platform/optionalPeer"

const workflow = await loadWithPeer(() => import("./index.js"), {
  user: "studio-effect/workflow",
  peer: "@effect/workflow",
  install: "npm install @effect/workflow@~0.19.1"
})

export const DurableMaestro = workflow.DurableMaestro
export const DurableAssistants = workflow.DurableAssistants
export const DurableChat = workflow.DurableChat
export const DurableBatches = workflow.DurableBatches
