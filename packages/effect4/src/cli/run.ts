/**
 * `studio-effect run <instruction>`: an orchestration run, followed to its end; `run get <run-id>` and
 * `run watch <run-id>` pick up a run by its id.
 */
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { noInstructionMessage, runDescriptions, runRequest } from "studio-effect-core/cli/run"
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
export const budget = Flag.Literals("budget", ["low", "medium", "high"]).pipe(
  Flag.optional,
  Flag.withDescription("How much effort the run may spend (the service's default: low)")
)

const instruction = Argument.String("instruction").pipe(
  Argument.withDescription(runDescriptions.instruction),
  Argument.optional
)
const include = Flag.Literals("include", ["data_sources", "requirements_result"]).pipe(
  Flag.atLeast(0),
  Flag.withDescription(
    "Extra fields of the result; repeat for several (requirements_result is asked for whenever there are requirements)"
  )
)

const runId = Argument.String("run-id").pipe(Argument.withDescription(runDescriptions.runId))

const get = Command.make(
  "get",
  { runId },
  (options) =>
    Effect.flatMap(Modules.Maestro, (Maestro) => Maestro.retrieve(options.runId)).pipe(
      Effect.flatMap(printJson),
      Client.provide(false)
    )
).pipe(Command.withDescription(runDescriptions.get))

const watch = Command.make(
  "watch",
  { runId },
  (options) =>
    Effect.flatMap(Modules.Maestro, (Maestro) => Maestro.retrieve(options.runId)).pipe(
      Effect.flatMap((run) => follow(run, { embedded: false })),
      Effect.flatMap(printRun),
      Client.provide(false)
    )
).pipe(Command.withDescription(runDescriptions.watch))

/**
 * The `run` command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "run",
  { instruction, requirements, budget, include, reference: Client.reference },
  (options) =>
    Effect.gen(function*() {
      if (Option.isNone(options.instruction)) {
        return yield* new CliFailure({ message: noInstructionMessage })
      }
      const chosen = requirementsOf(options.requirements)
      const request: RunRequest = runRequest(
        options.instruction.value,
        chosen,
        Option.getOrUndefined(options.budget),
        options.include
      )
      const Maestro = yield* Modules.Maestro
      const run = yield* Effect.flatMap(Maestro.create(request), (run) => follow(run, { embedded: options.reference }))
      yield* printRun(run)
    }).pipe(Effect.provide(Client.layer(options.reference)))
).pipe(
  Command.validate((input) => checkMandatory(input.requirements)),
  Command.withDescription(runDescriptions.command),
  Command.withSubcommands([get, watch])
)
