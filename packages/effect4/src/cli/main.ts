/**
 * The `studio-effect` command, built on `effect/cli`: `chat`, `run`, `assistants`, `files`, `batches`, `models` and `serve`, each against
 * the Studio service (STUDIO_API_KEY, STUDIO_BASE_URL) or, with `--reference`, the embedded reference
 * service. Any failure is one line on stderr and a non-zero exit code.
 *
 * @since 0.1.0
 */
import * as CliError from "effect/cli/CliError"
import * as CliCommand from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { rootDescription, rootExamples } from "studio-effect-core/cli/help"
import { version } from "../internal/http/version.js"
import * as Assistants from "./assistants.js"
import * as Batches from "./batches.js"
import * as Chat from "./chat.js"
import { describe } from "./failure.js"
import * as Files from "./files.js"
import { presenter } from "./help.js"
import * as Models from "./models.js"
import * as Run from "./run.js"
import { environment, runMain, teardown } from "./runtime.js"
import * as Serve from "./serve.js"
import { isStdoutClosed, printError } from "./stdio.js"

/**
 * The root command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = CliCommand.make("studio-effect").pipe(
  CliCommand.withDescription(rootDescription),
  CliCommand.withExamples(rootExamples),
  CliCommand.withSubcommands([
    Chat.command,
    Run.command,
    Assistants.command,
    Files.command,
    Batches.command,
    Models.command,
    Serve.command
  ])
)

/** Prints a failure as one line on stderr; `effect/cli` has already printed its own usage errors (`help.ts`). */
const report = (failure: unknown) =>
  CliError.isCliError(failure) || isStdoutClosed(failure)
    ? Effect.fail(failure)
    : Effect.andThen(printError(`studio-effect: ${describe(failure)}`), Effect.fail(failure))

/**
 * Runs the command with the process's arguments (`process.argv`: the runtime, the script, then the
 * command's own).
 *
 * @since 0.1.0
 * @category running
 */
export const run = (argv: ReadonlyArray<string>): Effect.Effect<void, unknown> =>
  CliCommand.runWith(command, { version })(argv.slice(2)).pipe(
    Effect.catch(report),
    Effect.catchDefect(report),
    Effect.provide(Layer.merge(environment, presenter))
  )

/**
 * Runs the command as the process's main effect, with the exit codes `exitCodes` lists (`runtime.ts`).
 *
 * @since 0.1.0
 * @category running
 */
export const main = (argv: ReadonlyArray<string>): void => runMain(run(argv), { disableErrorReporting: true, teardown })
