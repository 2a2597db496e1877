/**
 * How the command runs as a process: the environment `@effect/cli` needs, and the main runner (exit code,
 * Ctrl-C). Both come from `@effect/platform` alone, for the reason given in `terminal.ts`.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import { makeRunMain } from "@effect/platform/Runtime"
import * as Layer from "effect/Layer"
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
 * Runs the main effect of the process: Ctrl-C (or SIGTERM) interrupts it, and the process exits with the
 * effect's exit code (0 on success or interruption, 1 on failure).
 *
 * @since 0.1.0
 * @category running
 */
export const runMain = makeRunMain(({ fiber, teardown }) => {
  const onSignal = () => {
    process.removeListener("SIGINT", onSignal)
    process.removeListener("SIGTERM", onSignal)
    fiber.unsafeInterruptAsFork(fiber.id())
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  fiber.addObserver((exit) => {
    process.removeListener("SIGINT", onSignal)
    process.removeListener("SIGTERM", onSignal)
    teardown(exit, (code) => {
      process.exitCode = code
    })
  })
})
