/**
 * `studio-effect assistants list|create|get|update|run|delete`.
 */
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  assistantLine,
  assistantRunRequest,
  assistantsDescriptions,
  assistantsExamples
} from "studio-effect-core/cli/assistants"
import * as Client from "./client.js"
import * as Modules from "./modules.js"
import { follow, printRun } from "./progress.js"
import { checkMandatory, requirements, requirementsOf } from "./requirements.js"
import { budget } from "./run.js"
import { printJson, printShown } from "./stdio.js"

const json = Flag.Boolean("json").pipe(
  Flag.withDefault(false),
  Flag.withDescription(assistantsDescriptions.json)
)
/** The fields of an assistant that `create` and `update` take from their flags, each only when given. */
const assistantFields = <B, R>(
  options: {
    readonly description: Option.Option<string>
    readonly system: Option.Option<string>
    readonly budget: Option.Option<B>
  },
  requirements: ReadonlyArray<R>
) => ({
  ...Option.match(options.description, { onNone: () => ({}), onSome: (description) => ({ description }) }),
  ...Option.match(options.system, { onNone: () => ({}), onSome: (system_prompt) => ({ system_prompt }) }),
  ...(requirements.length > 0 ? { requirements } : {}),
  ...Option.match(options.budget, { onNone: () => ({}), onSome: (budget) => ({ budget }) })
})

const assistantId = Argument.String("assistant-id").pipe(Argument.withDescription(assistantsDescriptions.assistantId))
const description = Flag.String("description").pipe(
  Flag.optional,
  Flag.withDescription(assistantsDescriptions.description)
)
const system = Flag.String("system").pipe(
  Flag.withAlias("s"),
  Flag.optional,
  Flag.withDescription(assistantsDescriptions.system)
)

const list = Command.make(
  "list",
  { json, reference: Client.reference },
  (options) =>
    Effect.flatMap(Modules.Assistants, (Assistants) => Assistants.list()).pipe(
      Effect.flatMap((assistants) =>
        options.json
          ? printJson(assistants)
          : Effect.forEach(assistants.results, (assistant) => printShown(assistantLine(assistant)), {
            discard: true
          })
      ),
      Client.provide(options.reference)
    )
).pipe(Command.withDescription(assistantsDescriptions.list), Command.withExamples(assistantsExamples.list))

const create = Command.make(
  "create",
  {
    name: Argument.String("name").pipe(Argument.withDescription(assistantsDescriptions.name)),
    description,
    system,
    requirements,
    budget,
    json,
    reference: Client.reference
  },
  (options) => {
    const chosen = requirementsOf(options.requirements)
    return Effect.flatMap(Modules.Assistants, (Assistants) =>
      Assistants.create({
        name: options.name,
        ...assistantFields(options, chosen)
      }).pipe(
        Effect.flatMap((assistant) => options.json ? printJson(assistant) : printShown(assistant.id)),
        Client.provide(options.reference)
      ))
  }
).pipe(
  Command.validate((input) => checkMandatory(input.requirements)),
  Command.withDescription(assistantsDescriptions.create),
  Command.withExamples(assistantsExamples.create)
)

const get = Command.make(
  "get",
  { assistantId, reference: Client.reference },
  (options) =>
    Effect.flatMap(Modules.Assistants, (Assistants) =>
      Assistants.retrieve(options.assistantId).pipe(
        Effect.flatMap(printJson),
        Client.provide(options.reference)
      ))
).pipe(Command.withDescription(assistantsDescriptions.get), Command.withExamples(assistantsExamples.get))

const update = Command.make(
  "update",
  {
    assistantId,
    name: Flag.String("name").pipe(Flag.optional, Flag.withDescription(assistantsDescriptions.newName)),
    description,
    system,
    requirements,
    budget,
    json
  },
  (options) => {
    const chosen = requirementsOf(options.requirements)
    return Effect.flatMap(Modules.Assistants, (Assistants) =>
      Assistants.update(options.assistantId, {
        ...Option.match(options.name, { onNone: () => ({}), onSome: (name) => ({ name }) }),
        ...assistantFields(options, chosen)
      }).pipe(
        Effect.flatMap((assistant) => options.json ? printJson(assistant) : printShown(assistant.id)),
        Client.provideService
      ))
  }
).pipe(
  Command.validate((input) => checkMandatory(input.requirements)),
  Command.withDescription(assistantsDescriptions.update),
  Command.withExamples(assistantsExamples.update)
)

const run = Command.make(
  "run",
  {
    assistantId,
    message: Argument.String("message").pipe(Argument.withDescription(assistantsDescriptions.message)),
    requirements,
    reference: Client.reference
  },
  (options) => {
    const chosen = requirementsOf(options.requirements)
    return Effect.flatMap(
      Modules.Assistants,
      (Assistants) =>
        Assistants.run(options.assistantId, assistantRunRequest(options.message, chosen)).pipe(
          Effect.flatMap((run) => follow(run, { embedded: options.reference })),
          Effect.flatMap(printRun),
          Client.provide(options.reference)
        )
    )
  }
).pipe(
  Command.validate((input) => checkMandatory(input.requirements)),
  Command.withDescription(assistantsDescriptions.run),
  Command.withExamples(assistantsExamples.run)
)

const del = Command.make(
  "delete",
  { assistantId, reference: Client.reference },
  (options) =>
    Effect.flatMap(Modules.Assistants, (Assistants) =>
      Assistants.delete(options.assistantId).pipe(
        Effect.flatMap((deleted) => printShown(`deleted ${deleted.id}`)),
        Client.provide(options.reference)
      ))
).pipe(Command.withDescription(assistantsDescriptions.delete), Command.withExamples(assistantsExamples.delete))

/**
 * The `assistants` command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("assistants").pipe(
  Command.withDescription(assistantsDescriptions.command),
  Command.withExamples(assistantsExamples.command),
  Command.withSubcommands([list, create, get, update, run, del])
)
