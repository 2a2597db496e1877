/**
 * `studio-effect run <instruction>`: an orchestration run, followed to its end; `run get <run-id>` and
 * `run watch <run-id>` pick up a run by its id.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { noInstructionMessage, runDescriptions, runRequest } from "studio-effect-core/cli/run"
import { budgets, runIncludes } from "studio-effect-core/wire/runs"
import * as Maestro from "../Maestro.js"
import type { RunRequest } from "../MaestroSchema.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
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
  Options.optional,
  Options.withDescription("How much effort the run may spend: low, medium or high (the service's default: low)")
)

const instruction = Args.text({ name: "instruction" }).pipe(
  Args.withDescription(runDescriptions.instruction),
  Args.optional
)
const include = choices("include", runIncludes).pipe(
  Options.withDescription(
    "Extra fields of the result: data_sources or requirements_result; repeat for several (requirements_result " +
      "is asked for whenever there are requirements)"
  )
)
const runId = Args.text({ name: "run-id" }).pipe(Args.withDescription(runDescriptions.runId))

const get = Command.make("get", { runId }, (options) =>
  Maestro.retrieve(options.runId).pipe(
    Effect.flatMap(printJson),
    Client.provide(false)
  )).pipe(Command.withDescription(runDescriptions.get))

const watch = Command.make("watch", { runId }, (options) =>
  Maestro.retrieve(options.runId).pipe(
    Effect.flatMap((run) => follow(run, { embedded: false })),
    Effect.flatMap(printRun),
    Client.provide(false)
  )).pipe(Command.withDescription(runDescriptions.watch))

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
      const request: RunRequest = runRequest(
        options.instruction.value,
        options.requirements,
        Option.getOrUndefined(options.budget),
        options.include
      )
      const run = yield* Effect.flatMap(Maestro.create(request), (run) => follow(run, { embedded: options.reference }))
      yield* printRun(run)
    }).pipe(Effect.provide(Client.layer(options.reference)))
).pipe(
  Command.withDescription(runDescriptions.command),
  Command.withSubcommands([get, watch])
)
