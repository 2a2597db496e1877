/**
 * `studio-effect models list`: the models the service offers.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import { modelLine, modelsDescriptions, modelsExamples } from "studio-effect-core/cli/models"
import * as Models from "../Models.js"
import * as Client from "./client.js"
import { described } from "./help.js"
import { printJson, printShown } from "./output.js"

const json = Options.boolean("json").pipe(Options.withDescription(modelsDescriptions.json))

const list = Command.make("list", { json, reference: Client.reference }, (options) =>
  Models.list().pipe(
    Effect.flatMap((models) =>
      options.json
        ? printJson(models)
        : Effect.forEach(models.data, (model) => printShown(modelLine(model)), { discard: true })
    ),
    Client.provide(options.reference)
  )).pipe(Command.withDescription(described(modelsDescriptions.list, modelsExamples)))

/**
 * The `models` command and its subcommand.
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("models").pipe(
  Command.withDescription(described(modelsDescriptions.command, modelsExamples)),
  Command.withSubcommands([list])
)
