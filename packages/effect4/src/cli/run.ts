/**
 * `studio-effect run <instruction>`: an orchestration run, followed to its end; `run get <run-id>` and
 * `run watch <run-id>` pick up a run by its id.
 */
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { exitCodes } from "studio-effect-core/cli/exitCodes"
import { flagValues } from "studio-effect-core/cli/flagValues"
import { noInstructionMessage, runDescriptions, runExamples, runRequest } from "studio-effect-core/cli/run"
import { budgets, responseLanguages, runIncludes } from "studio-effect-core/wire/runs"
import type { RunRequest } from "../MaestroSchema.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import * as Modules from "./modules.js"
import { follow, printRun } from "./progress.js"
import { checkMandatory, requirements, requirementsOf } from "./requirements.js"
import { printJson } from "./stdio.js"

/**
 * `--budget low|medium|high`.
 *
 * @since 0.1.0
 * @category options
 */
export const budget = Flag.Literals("budget", budgets).pipe(
  Flag.withAlias("b"),
  Flag.optional,
  Flag.withDescription(runDescriptions.budget)
)

const instruction = Argument.String("instruction").pipe(
  Argument.withDescription(runDescriptions.instruction),
  Argument.optional
)
const include = Flag.Literals("include", runIncludes).pipe(
  Flag.atLeast(0),
  Flag.withDescription(runDescriptions.include)
)
const model = Flag.String("model").pipe(Flag.withAlias("m"), Flag.optional, Flag.withDescription(runDescriptions.model))
const system = Flag.String("system").pipe(
  Flag.withAlias("s"),
  Flag.optional,
  Flag.withDescription(runDescriptions.system)
)
const language = Flag.Literals("language", responseLanguages).pipe(
  Flag.optional,
  Flag.withDescription(runDescriptions.language)
)
const webSearch = Flag.Boolean("web-search").pipe(
  Flag.withDefault(false),
  Flag.withDescription(runDescriptions.webSearch)
)
const webSearchUrls = Flag.String("web-search-url").pipe(
  Flag.atLeast(0),
  Flag.withDescription(runDescriptions.webSearchUrl)
)
const fileSearch = Flag.Boolean("file-search").pipe(
  Flag.withDefault(false),
  Flag.withDescription(runDescriptions.fileSearch)
)
const fileLabels = Flag.String("file-label").pipe(
  Flag.atLeast(0),
  Flag.withDescription(runDescriptions.fileLabel)
)

const runId = Argument.String("run-id").pipe(Argument.withDescription(runDescriptions.runId))

const get = Command.make(
  "get",
  { runId },
  (options) =>
    Effect.flatMap(Modules.Maestro, (Maestro) => Maestro.retrieve(options.runId)).pipe(
      Effect.flatMap(printJson),
      Client.provideService
    )
).pipe(Command.withDescription(runDescriptions.get), Command.withExamples(runExamples.get))

const watch = Command.make(
  "watch",
  { runId },
  (options) =>
    Effect.flatMap(Modules.Maestro, (Maestro) => Maestro.retrieve(options.runId)).pipe(
      Effect.flatMap((run) => follow(run, { embedded: false })),
      Effect.flatMap(printRun),
      Client.provideService
    )
).pipe(Command.withDescription(runDescriptions.watch), Command.withExamples(runExamples.watch))

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
      const chosen = requirementsOf(options.requirements)
      const request: RunRequest = runRequest(options.instruction.value, chosen, flagValues(options))
      const Maestro = yield* Modules.Maestro
      const run = yield* Effect.flatMap(Maestro.create(request), (run) => follow(run, { embedded: options.reference }))
      yield* printRun(run)
    }).pipe(Effect.provide(Client.layer(options.reference)))
).pipe(
  Command.validate((input) => checkMandatory(input.requirements)),
  Command.withDescription(runDescriptions.command),
  Command.withExamples(runExamples.run),
  Command.withSubcommands([get, watch])
)
