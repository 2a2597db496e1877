/**
 * `studio-effect assistants list|create|get|update|run|delete`.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  assistantLine,
  assistantRunRequest,
  assistantsDescriptions,
  assistantsExamples
} from "studio-effect-core/cli/assistants"
import * as Assistants from "../Assistants.js"
import * as Client from "./client.js"
import { described } from "./help.js"
import { printJson, printShown } from "./output.js"
import { follow, printRun } from "./progress.js"
import { requirements } from "./requirements.js"
import { budget } from "./run.js"

const json = Options.boolean("json").pipe(Options.withDescription(assistantsDescriptions.json))

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

const assistantId = Args.text({ name: "assistant-id" }).pipe(Args.withDescription(assistantsDescriptions.assistantId))

const description = Options.text("description").pipe(
  Options.optional,
  Options.withDescription(assistantsDescriptions.description)
)
const system = Options.text("system").pipe(
  Options.withAlias("s"),
  Options.optional,
  Options.withDescription(assistantsDescriptions.system)
)

const list = Command.make("list", { json, reference: Client.reference }, (options) =>
  Assistants.list().pipe(
    Effect.flatMap((assistants) =>
      options.json
        ? printJson(assistants)
        : Effect.forEach(assistants.results, (assistant) => printShown(assistantLine(assistant)), {
          discard: true
        })
    ),
    Client.provide(options.reference)
  )).pipe(Command.withDescription(described(assistantsDescriptions.list, assistantsExamples.list)))

const create = Command.make(
  "create",
  {
    name: Args.text({ name: "name" }).pipe(Args.withDescription(assistantsDescriptions.name)),
    description,
    system,
    requirements,
    budget,
    json,
    reference: Client.reference
  },
  (options) =>
    Assistants.create({
      name: options.name,
      ...assistantFields(options, options.requirements)
    }).pipe(
      Effect.flatMap((assistant) => options.json ? printJson(assistant) : printShown(assistant.id)),
      Client.provide(options.reference)
    )
).pipe(Command.withDescription(described(assistantsDescriptions.create, assistantsExamples.create)))

const get = Command.make(
  "get",
  { assistantId, reference: Client.reference },
  (options) =>
    Assistants.retrieve(options.assistantId).pipe(
      Effect.flatMap(printJson),
      Client.provide(options.reference)
    )
).pipe(Command.withDescription(described(assistantsDescriptions.get, assistantsExamples.get)))

const update = Command.make(
  "update",
  {
    assistantId,
    name: Options.text("name").pipe(Options.optional, Options.withDescription(assistantsDescriptions.newName)),
    description,
    system,
    requirements,
    budget,
    json
  },
  (options) =>
    Assistants.update(options.assistantId, {
      ...Option.match(options.name, { onNone: () => ({}), onSome: (name) => ({ name }) }),
      ...assistantFields(options, options.requirements)
    }).pipe(
      Effect.flatMap((assistant) => options.json ? printJson(assistant) : printShown(assistant.id)),
      Client.provideService
    )
).pipe(
  Command.withDescription(described(assistantsDescriptions.update, assistantsExamples.update))
)

const run = Command.make(
  "run",
  {
    assistantId,
    message: Args.text({ name: "message" }).pipe(Args.withDescription(assistantsDescriptions.message)),
    requirements,
    reference: Client.reference
  },
  (options) =>
    Assistants.run(options.assistantId, assistantRunRequest(options.message, options.requirements)).pipe(
      Effect.flatMap((run) => follow(run, { embedded: options.reference })),
      Effect.flatMap(printRun),
      Client.provide(options.reference)
    )
).pipe(
  Command.withDescription(described(assistantsDescriptions.run, assistantsExamples.run))
)

const del = Command.make(
  "delete",
  { assistantId, reference: Client.reference },
  (options) =>
    Assistants.delete(options.assistantId).pipe(
      Effect.flatMap((deleted) => printShown(`deleted ${deleted.id}`)),
      Client.provide(options.reference)
    )
).pipe(Command.withDescription(described(assistantsDescriptions.delete, assistantsExamples.delete)))

/**
 * The `assistants` command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("assistants").pipe(
  Command.withDescription(described(assistantsDescriptions.command, assistantsExamples.command)),
  Command.withSubcommands([list, create, get, update, run, del])
)
