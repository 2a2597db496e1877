/**
 * How the command runs as a process: the environment `effect/cli` needs, and the main runner (exit code,
 * Ctrl-C, closed standard streams). Both come from `effect` alone, for the reason given in `terminal.ts` and `stdio.ts`.
 */
import * as Cause from "effect/Cause"
import * as CliError from "effect/cli/CliError"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Path from "effect/Path"
import * as PlatformError from "effect/PlatformError"
import * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"
import { makeRunMain } from "effect/Runtime"
import { exitCodeOf, exitCodes } from "studio-effect-core/cli/exitCodes"
import { handleSignals, waitForCtrlC } from "studio-effect-core/cli/signals"
import { CliFailure } from "./failure.js"
import * as Stdio from "./stdio.js"
import * as Terminal from "./terminal.js"

/**
 * No command or option of `studio-effect` starts a process: one that tries fails with a `PlatformError`.
 */
const noProcesses = Layer.succeed(
  ChildProcessSpawner.ChildProcessSpawner,
  ChildProcessSpawner.make(() =>
    Effect.fail(
      PlatformError.badArgument({
        module: "ChildProcessSpawner",
        method: "spawn",
        description: "studio-effect starts no process"
      })
    )
  )
)

/**
 * What `effect/cli` needs to run: the process's terminal and standard streams, POSIX paths, no file system
 * (no command or option of `studio-effect` reads a file; one that tries fails with a `PlatformError`) and
 * no child processes.
 *
 * @since 0.1.0
 * @category layers
 */
export const environment = Layer.mergeAll(
  Terminal.layer,
  Stdio.layer,
  Path.layer,
  FileSystem.layerNoop({}),
  noProcesses
)

/**
 * Ctrl-C, for a command that gives it a meaning of its own (following a run stops following it): completes
 * at the next SIGINT, and while it waits, SIGINT does not interrupt the command.
 *
 * @since 0.1.0
 * @category running
 */
export const ctrlC: Effect.Effect<void> = Effect.callback<void>((resume) =>
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
  const removeHandlers = handleSignals(process, () => fiber.interruptUnsafe(fiber.id))
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
 * of `effect/cli`; the code a `CliFailure` carries; 4 for the service's `AuthError` (401, 403); 1 otherwise.
 *
 * @since 0.1.0
 * @category running
 */
export const teardown = <E, A>(exit: Exit.Exit<A, E>, onExit: (code: number) => void): void => {
  if (Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause)) return onExit(exitCodes.success)
  const failure = Cause.squash(exit.cause)
  if (Stdio.isStdoutClosed(failure)) return onExit(exitCodes.success)
  if (CliError.isCliError(failure)) {
    return onExit(failure._tag === "ShowHelp" && failure.errors.length === 0 ? exitCodes.success : exitCodes.usage)
  }
  onExit(failure instanceof CliFailure ? failure.exitCode ?? exitCodes.failure : exitCodeOf(failure))
}
