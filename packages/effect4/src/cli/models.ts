/**
 * `studio-effect models list`: the models the service offers.
 */
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import { modelLine, modelsDescriptions, modelsExamples } from "studio-effect-core/cli/models"
import * as Client from "./client.js"
import * as Modules from "./modules.js"
import { printJson, printShown } from "./stdio.js"

const json = Flag.Boolean("json").pipe(
  Flag.withDefault(false),
  Flag.withDescription(modelsDescriptions.json)
)

const list = Command.make(
  "list",
  { json, reference: Client.reference },
  (options) =>
    Effect.flatMap(Modules.Models, (Models) => Models.list()).pipe(
      Effect.flatMap((models) =>
        options.json
          ? printJson(models)
          : Effect.forEach(models.data, (model) => printShown(modelLine(model)), { discard: true })
      ),
      Client.provide(options.reference)
    )
).pipe(Command.withDescription(modelsDescriptions.list), Command.withExamples(modelsExamples))

/**
 * The `models` command and its subcommand.
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("models").pipe(
  Command.withDescription(modelsDescriptions.command),
  Command.withExamples(modelsExamples),
  Command.withSubcommands([list])
)
