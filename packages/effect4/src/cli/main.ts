/**
 * The `studio-effect` command, built on `effect/cli`: `chat`, `run`, `assistants` and `serve`, each against
 * the Studio service (STUDIO_API_KEY, STUDIO_BASE_URL) or, with `--reference`, the embedded reference
 * service. Any failure is one line on stderr and a non-zero exit code.
 *
 * @since 0.1.0
 */
import * as CliError from "effect/cli/CliError"
import * as CliOutput from "effect/cli/CliOutput"
import * as CliCommand from "effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { version } from "../internal/http/version.js"
import * as Assistants from "./assistants.js"
import * as Chat from "./chat.js"
import { describe } from "./failure.js"
import * as Files from "./files.js"
import * as Run from "./run.js"
import { environment, runMain, teardown } from "./runtime.js"
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

/** `--version` prints the version alone, as scripts read it; help and usage errors are `effect/cli`'s own. */
const presenter = CliOutput.layerPresenter({
  present: (event) => event._tag === "Version" ? Console.log(event.version) : CliOutput.defaultPresenter.present(event)
})

/** Prints a failure as one line on stderr; `effect/cli` has already printed its own usage errors. */
const report = (failure: unknown): Effect.Effect<never, unknown> =>
  CliError.isCliError(failure)
    ? Effect.fail(failure)
    : Effect.andThen(Console.error(`studio-effect: ${describe(failure)}`), Effect.fail(failure))

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
 * Runs the command as the process's main effect: the exit code is 0 on success and 1 on failure.
 *
 * @since 0.1.0
 * @category running
 */
export const main = (argv: ReadonlyArray<string>): void => runMain(run(argv), { disableErrorReporting: true, teardown })
