/**
 * `studio-effect run <instruction>`: an orchestration run, followed to its end.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { budgets, runIncludes } from "studio-effect-core/wire/maestro"
import * as Maestro from "../Maestro.js"
import type { RunRequest } from "../MaestroSchema.js"
import * as Client from "./client.js"
import { follow, printRun } from "./progress.js"
import { requirements } from "./requirements.js"

/**
 * `--budget low|medium|high`.
 *
 * @since 0.1.0
 * @category options
 */
export const budget = Options.choice("budget", budgets).pipe(
  Options.optional,
  Options.withDescription("How much effort the run may spend (the service's default: low)")
)

const instruction = Args.text({ name: "instruction" }).pipe(Args.withDescription("What the run should do"))
const include = Options.choice("include", runIncludes).pipe(
  Options.repeated,
  Options.withDescription(
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
      const includes = new Set(options.include)
      if (options.requirements.length > 0) includes.add("requirements_result")
      const request: RunRequest = {
        input: options.instruction,
        ...(options.requirements.length > 0 ? { requirements: options.requirements } : {}),
        ...Option.match(options.budget, { onNone: () => ({}), onSome: (budget) => ({ budget }) }),
        ...(includes.size > 0 ? { include: [...includes] } : {})
      }
      const run = yield* Effect.flatMap(Maestro.create(request), follow)
      yield* printRun(run)
    }).pipe(Effect.provide(Client.layer(options.reference)))
).pipe(Command.withDescription("Start an orchestration run, follow it, and print its result and requirement scores"))
