/**
 * How the command runs as a process: the environment `@effect/cli` needs, and the main runner (exit code,
 * Ctrl-C, closed standard streams). Both come from `@effect/platform` alone, for the reason given in
 * `terminal.ts`.
 */
import * as ValidationError from "@effect/cli/ValidationError"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import { makeRunMain, type Teardown } from "@effect/platform/Runtime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { exitCodeOf, exitCodes } from "studio-effect-core/cli/exitCodes"
import { handleSignals, waitForCtrlC } from "studio-effect-core/cli/signals"
import { CliFailure } from "./failure.js"
import { StdoutClosed } from "./output.js"
import * as Terminal from "./terminal.js"

/**
 * What `@effect/cli` needs to run: the process's terminal, POSIX paths, and no file system (no command
 * or option of `studio-effect` reads a file; one that tries fails with a `PlatformError`).
 *
 * @since 0.1.0
 * @category layers
 */
export const environment = Layer.mergeAll(Terminal.layer, Path.layer, FileSystem.layerNoop({}))

/**
 * Ctrl-C, for a command that gives it a meaning of its own (following a run stops following it): completes
 * at the next SIGINT, and while it waits, SIGINT does not interrupt the command.
 *
 * @since 0.1.0
 * @category running
 */
export const ctrlC: Effect.Effect<void> = Effect.async<void>((resume) =>
  Effect.sync(waitForCtrlC(() => resume(Effect.void)))
)

/**
 * Runs the main effect of the process: Ctrl-C (or SIGTERM) interrupts it, unless it waits for Ctrl-C itself
 * (`ctrlC`); the process exits with the code `teardown` gives.
 *
 * @since 0.1.0
 * @category running
 */
export const runMain = makeRunMain(({ fiber, teardown }) => {
  const removeHandlers = handleSignals(process, () => fiber.unsafeInterruptAsFork(fiber.id()))
  fiber.addObserver((exit) => {
    removeHandlers()
    teardown(exit, (code) => {
      process.exitCode = code
    })
  })
})

/**
 * The exit code of the main effect (`exitCodes`): 0 when it succeeds, is interrupted (Ctrl-C ends `serve`
 * normally), stops because stdout's reader has gone, or shows the help it was asked for; 2 for a usage error
 * of `@effect/cli`; the code a `CliFailure` carries; 4 for the service's `AuthError` (401, 403); 1 otherwise.
 *
 * @since 0.1.0
 * @category running
 */
export const teardown: Teardown = (exit, onExit) => {
  if (Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)) return onExit(exitCodes.success)
  const failure = Cause.squash(exit.cause)
  if (failure instanceof StdoutClosed) return onExit(exitCodes.success)
  if (ValidationError.isValidationError(failure)) {
    return onExit(ValidationError.isHelpRequested(failure) ? exitCodes.success : exitCodes.usage)
  }
  onExit(failure instanceof CliFailure ? failure.exitCode ?? exitCodes.failure : exitCodeOf(failure))
}
