/**
 * The `studio-effect` command, built on `@effect/cli`: `chat`, `run`, `assistants` and `serve`, each against
 * the Studio service (STUDIO_API_KEY, STUDIO_BASE_URL) or, with `--reference`, the embedded reference
 * service. Any failure is one line on stderr and a non-zero exit code.
 *
 * @since 0.1.0
 */
import * as CliCommand from "@effect/cli/Command"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { version } from "../internal/http/version.js"
import * as Assistants from "./assistants.js"
import * as Chat from "./chat.js"
import { describe } from "./failure.js"
import * as Files from "./files.js"
import * as Run from "./run.js"
import { environment, runMain } from "./runtime.js"
import * as Serve from "./serve.js"

/**
 * The root command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = CliCommand.make("studio-effect").pipe(
  CliCommand.withDescription(
    "The Studio service from the terminal: chat, orchestration runs and assistants, against the service " +
      "(STUDIO_API_KEY, STUDIO_BASE_URL) or the embedded reference service (--reference); and serve the " +
      "reference service over HTTP"
  ),
  CliCommand.withSubcommands([Chat.command, Run.command, Assistants.command, Files.command, Serve.command])
)

const cli = CliCommand.run(command, { name: "studio-effect", version })

/** Prints a failure as one line on stderr; `@effect/cli` has already printed its own usage errors. */
const report = (failure: unknown): Effect.Effect<never, unknown> =>
  ValidationError.isValidationError(failure)
    ? Effect.fail(failure)
    : Effect.zipRight(Console.error(`studio-effect: ${describe(failure)}`), Effect.fail(failure))

/**
 * Runs the command with the process's arguments (`process.argv`: the runtime, the script, then the
 * command's own).
 *
 * @since 0.1.0
 * @category running
 */
export const run = (argv: ReadonlyArray<string>): Effect.Effect<void, unknown> =>
  cli(argv).pipe(
    Effect.catchAll(report),
    Effect.catchAllDefect((defect) => report(defect)),
    Effect.provide(environment)
  )

/**
 * Runs the command as the process's main effect: the exit code is 0 on success and 1 on failure.
 *
 * @since 0.1.0
 * @category running
 */
export const main = (argv: ReadonlyArray<string>): void => runMain(run(argv), { disableErrorReporting: true })
