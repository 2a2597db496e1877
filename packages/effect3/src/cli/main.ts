/**
 * The `studio-effect` command, built on `@effect/cli`: `chat`, `run`, `assistants`, `files`, `batches`, `models` and `serve`, each against
 * the Studio service (STUDIO_API_KEY, STUDIO_BASE_URL) or, with `--reference`, the embedded reference
 * service. Any failure is one line on stderr and a non-zero exit code.
 *
 * @since 0.1.0
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as CliCommand from "@effect/cli/Command"
import type * as Descriptor from "@effect/cli/CommandDescriptor"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { exitCodes } from "studio-effect-core/cli/exitCodes"
import { rootDescription, rootExamples } from "studio-effect-core/cli/help"
import { version } from "../internal/http/version.js"
import * as Assistants from "./assistants.js"
import * as Batches from "./batches.js"
import * as Chat from "./chat.js"
import { CliFailure, describe } from "./failure.js"
import * as Files from "./files.js"
import * as Help from "./help.js"
import * as Models from "./models.js"
import { printError, StdoutClosed } from "./output.js"
import * as Run from "./run.js"
import { environment, runMain, teardown } from "./runtime.js"
import * as Serve from "./serve.js"
import { unknownOption } from "./unknownOption.js"

/**
 * The root command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = CliCommand.make("studio-effect").pipe(
  CliCommand.withDescription(Help.described(rootDescription, rootExamples)),
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

const subcommands = [
  Chat.command,
  Run.command,
  Assistants.command,
  Files.command,
  Batches.command,
  Models.command,
  Serve.command
]
  .map((command) => command.descriptor as Descriptor.Command<unknown>)

/** The options of every command, listed once at the foot of each help rather than in each command's options. */
const footer = HelpDoc.p(
  "Every command also takes --help, --version, --log-level <all|trace|debug|info|warning|error|fatal|none> " +
    "(anywhere on the line), --completions <bash|fish|zsh> and --wizard."
)

/** `--log-level` is taken anywhere on the line, as on the Effect 4 line: `@effect/cli` reads it before the command. */
const logLevelFirst = (args: ReadonlyArray<string>): Array<string> => {
  const end = args.indexOf("--")
  const options = end < 0 ? args : args.slice(0, end)
  const logLevel: Array<string> = []
  const rest: Array<string> = []
  for (let i = 0; i < options.length; i++) {
    const arg = options[i]!
    if (arg.startsWith("--log-level=")) logLevel.push(arg)
    else if (arg === "--log-level" && i + 1 < options.length) logLevel.push(arg, options[++i]!)
    else rest.push(arg)
  }
  return [...logLevel, ...rest, ...(end < 0 ? [] : args.slice(end))]
}

/** Prints a failure as one line on stderr; `@effect/cli` has already printed its own usage errors. */
const report = (failure: unknown): Effect.Effect<never, unknown> =>
  ValidationError.isValidationError(failure) || failure instanceof StdoutClosed
    ? Effect.fail(failure)
    : Effect.zipRight(printError(`studio-effect: ${describe(failure)}`), Effect.fail(failure))

/**
 * Runs the command with the process's arguments (`process.argv`: the runtime, the script, then the
 * command's own).
 *
 * @since 0.1.0
 * @category running
 */
export const run = (argv: ReadonlyArray<string>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const args = argv.slice(2)
    const unknown = unknownOption({ name: "studio-effect", descriptor: command.descriptor }, subcommands, args)
    if (Option.isSome(unknown)) return yield* new CliFailure({ message: unknown.value, exitCode: exitCodes.usage })
    const console = yield* Effect.console
    const layout = yield* Help.layout
    // a completion script is printed as it is; what the commands print is their own
    const shown = args.includes("--completions") ? console : Help.console(console, layout)
    const cli = CliCommand.run(
      command.pipe(CliCommand.transformHandler((handler) => Effect.withConsole(handler, console))),
      { name: "studio-effect", version, footer }
    )
    yield* Effect.withConsole(cli([...argv.slice(0, 2), ...logLevelFirst(args)]), shown)
  }).pipe(
    Effect.catchAll(report),
    Effect.catchAllDefect((defect) => report(defect)),
    Effect.provide(Layer.merge(environment, CliConfig.layer({ showBuiltIns: false })))
  )

/**
 * Runs the command as the process's main effect, with the exit codes `exitCodes` lists (`runtime.ts`).
 *
 * @since 0.1.0
 * @category running
 */
export const main = (argv: ReadonlyArray<string>): void => runMain(run(argv), { disableErrorReporting: true, teardown })
