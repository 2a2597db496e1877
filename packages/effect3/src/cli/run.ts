/**
 * `studio-effect run <instruction>`: an orchestration run, followed to its end; `run get <run-id>` and
 * `run watch <run-id>` pick up a run by its id.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { exitCodes } from "studio-effect-core/cli/exitCodes"
import { flagValues } from "studio-effect-core/cli/flagValues"
import { noInstructionMessage, runDescriptions, runExamples, runRequest } from "studio-effect-core/cli/run"
import { budgets, responseLanguages, runIncludes } from "studio-effect-core/wire/runs"
import * as Maestro from "../Maestro.js"
import type { RunRequest } from "../MaestroSchema.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import { described } from "./help.js"
import { choice, choices } from "./options.js"
import { printJson } from "./output.js"
import { follow, printRun } from "./progress.js"
import { requirements } from "./requirements.js"

/**
 * `--budget low|medium|high`.
 *
 * @since 0.1.0
 * @category options
 */
export const budget = choice("budget", budgets).pipe(
  Options.withAlias("b"),
  Options.optional,
  Options.withDescription(runDescriptions.budget)
)

const instruction = Args.text({ name: "instruction" }).pipe(
  Args.withDescription(runDescriptions.instruction),
  Args.optional
)
const include = choices("include", runIncludes).pipe(Options.withDescription(runDescriptions.include))
const model = Options.text("model").pipe(
  Options.withAlias("m"),
  Options.optional,
  Options.withDescription(runDescriptions.model)
)
const system = Options.text("system").pipe(
  Options.withAlias("s"),
  Options.optional,
  Options.withDescription(runDescriptions.system)
)
/** Its choices are too many for the usage line, which lists a pseudo-name's whole: the description lists them. */
const language = choice("language", responseLanguages).pipe(
  Options.withPseudoName("language"),
  Options.optional,
  Options.withDescription(`${runDescriptions.language} (choices: ${responseLanguages.join(", ")})`)
)
const webSearch = Options.boolean("web-search").pipe(Options.withDescription(runDescriptions.webSearch))
const webSearchUrls = Options.text("web-search-url").pipe(
  Options.repeated,
  Options.withDefault<ReadonlyArray<string>>([]),
  Options.withDescription(runDescriptions.webSearchUrl)
)
const fileSearch = Options.boolean("file-search").pipe(Options.withDescription(runDescriptions.fileSearch))
const fileLabels = Options.text("file-label").pipe(
  Options.repeated,
  Options.withDefault<ReadonlyArray<string>>([]),
  Options.withDescription(runDescriptions.fileLabel)
)
const runId = Args.text({ name: "run-id" }).pipe(Args.withDescription(runDescriptions.runId))

const get = Command.make("get", { runId }, (options) =>
  Maestro.retrieve(options.runId).pipe(
    Effect.flatMap(printJson),
    Client.provideService
  )).pipe(Command.withDescription(described(runDescriptions.get, runExamples.get)))

const watch = Command.make("watch", { runId }, (options) =>
  Maestro.retrieve(options.runId).pipe(
    Effect.flatMap((run) => follow(run, { embedded: false })),
    Effect.flatMap(printRun),
    Client.provideService
  )).pipe(Command.withDescription(described(runDescriptions.watch, runExamples.watch)))

/**
 * The `run` command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "run",
  {
    instruction,
    requirements,
    budget,
    include,
    model,
    system,
    language,
    webSearch,
    webSearchUrls,
    fileSearch,
    fileLabels,
    reference: Client.reference
  },
  (options) =>
    Effect.gen(function*() {
      if (Option.isNone(options.instruction)) {
        return yield* new CliFailure({ message: noInstructionMessage, exitCode: exitCodes.usage })
      }
      const request: RunRequest = runRequest(options.instruction.value, options.requirements, flagValues(options))
      const run = yield* Effect.flatMap(Maestro.create(request), (run) => follow(run, { embedded: options.reference }))
      yield* printRun(run)
    }).pipe(Effect.provide(Client.layer(options.reference)))
).pipe(
  Command.withDescription(described(runDescriptions.command, runExamples.run)),
  Command.withSubcommands([get, watch])
)
