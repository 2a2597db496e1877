/**
 * `studio-effect run <instruction>`: an orchestration run, followed to its end.
 */
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Maestro from "../Maestro.js"
import type { RunRequest } from "../MaestroSchema.js"
import * as Client from "./client.js"
import { follow, printRun } from "./progress.js"
import { checkMandatory, requirements, requirementsOf } from "./requirements.js"

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

const instruction = Argument.String("instruction").pipe(Argument.withDescription("What the run should do"))
const include = Flag.Literals("include", ["data_sources", "requirements_result"]).pipe(
  Flag.atLeast(0),
  Flag.withDescription(
    "Extra fields of the result; repeat for several (requirements_result is asked for whenever there are requirements)"
  )
)

/**
 * The `run` command.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "run",
  { instruction, requirements, budget, include, reference: Client.reference },
  (options) =>
    Effect.gen(function*() {
      const chosen = requirementsOf(options.requirements)
      const includes = new Set(options.include)
      if (chosen.length > 0) includes.add("requirements_result")
      const request: RunRequest = {
        input: options.instruction,
        ...(chosen.length > 0 ? { requirements: chosen } : {}),
        ...Option.match(options.budget, { onNone: () => ({}), onSome: (budget) => ({ budget }) }),
        ...(includes.size > 0 ? { include: [...includes] } : {})
      }
      const run = yield* Effect.flatMap(Maestro.create(request), follow)
      yield* printRun(run)
    }).pipe(Effect.provide(Client.layer(options.reference)))
).pipe(
  Command.validate((input) => checkMandatory(input.requirements)),
  Command.withDescription("Start an orchestration run, follow it, and print its result and requirement scores")
)
