/**
 * `studio-effect assistants list|create|get|update|run|delete`.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Assistants from "../Assistants.js"
import * as Client from "./client.js"
import { printJson, printShown } from "./output.js"
import { follow, printRun } from "./progress.js"
import { requirements } from "./requirements.js"
import { budget } from "./run.js"

const json = Options.boolean("json").pipe(Options.withDescription("Print the service's answer as JSON"))

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

const assistantId = Args.text({ name: "assistant-id" }).pipe(Args.withDescription("The assistant's id"))

const description = Options.text("description").pipe(Options.optional, Options.withDescription("What it is for"))
const system = Options.text("system").pipe(Options.optional, Options.withDescription("Its system prompt"))

const list = Command.make("list", { json, reference: Client.reference }, (options) =>
  Assistants.list().pipe(
    Effect.flatMap((assistants) =>
      options.json
        ? printJson(assistants)
        : Effect.forEach(assistants.results, (assistant) => printShown(`${assistant.id}  ${assistant.name}`), {
          discard: true
        })
    ),
    Client.provide(options.reference)
  )).pipe(Command.withDescription("List the assistants: one per line, its id then its name"))

const create = Command.make(
  "create",
  {
    name: Args.text({ name: "name" }).pipe(Args.withDescription("The assistant's name")),
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
).pipe(Command.withDescription("Create an assistant and print its id"))

const get = Command.make(
  "get",
  { assistantId, reference: Client.reference },
  (options) =>
    Assistants.retrieve(options.assistantId).pipe(
      Effect.flatMap(printJson),
      Client.provide(options.reference)
    )
).pipe(Command.withDescription("Print an assistant as JSON"))

const update = Command.make(
  "update",
  {
    assistantId,
    name: Options.text("name").pipe(Options.optional, Options.withDescription("Its new name")),
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
      Client.provide(false)
    )
).pipe(
  Command.withDescription(
    "Change an assistant: only the fields given change (--requirement replaces its requirements); print its id " +
      "(the service at STUDIO_BASE_URL)"
  )
)

const run = Command.make(
  "run",
  {
    assistantId,
    message: Args.text({ name: "message" }).pipe(Args.withDescription("The user's message")),
    requirements,
    reference: Client.reference
  },
  (options) =>
    Assistants.run(options.assistantId, {
      input: [{ role: "user", content: options.message }],
      ...(options.requirements.length > 0 ? { requirements: options.requirements } : {}),
      include: ["requirements_result"]
    }).pipe(
      Effect.flatMap((run) => follow(run, { embedded: options.reference })),
      Effect.flatMap(printRun),
      Client.provide(options.reference)
    )
).pipe(
  Command.withDescription(
    "Run an assistant on a message, follow the run, and print its result and requirement scores " +
      "(--requirement replaces the stored requirements for this run)"
  )
)

const del = Command.make(
  "delete",
  { assistantId, reference: Client.reference },
  (options) =>
    Assistants.delete(options.assistantId).pipe(
      Effect.flatMap((deleted) => printShown(`deleted ${deleted.id}`)),
      Client.provide(options.reference)
    )
).pipe(Command.withDescription("Delete an assistant"))

/**
 * The `assistants` command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("assistants").pipe(
  Command.withDescription(
    "Manage and run stored assistants (with --reference each command starts a fresh embedded service, " +
      "so use `studio-effect serve` and STUDIO_BASE_URL to keep assistants between commands)"
  ),
  Command.withSubcommands([list, create, get, update, run, del])
)
