/**
 * What `studio-effect assistants` says and sends: its commands' and options' descriptions, how it prints an
 * assistant, and the request that runs one on a message.
 *
 * @since 0.1.0
 */
import type { Example } from "./help.js"

/**
 * The descriptions of the `assistants` command, its subcommands, and their options and arguments.
 *
 * @since 0.1.0
 * @category constants
 */
export const assistantsDescriptions = {
  command: "Manage and run stored assistants (with --reference each command starts a fresh embedded service, " +
    "so use `studio-effect serve` and STUDIO_BASE_URL to keep assistants between commands)",
  list: "List the assistants: one per line, its id then its name",
  create: "Create an assistant and print its id",
  get: "Print an assistant as JSON",
  update: "Change an assistant: only the fields given change (--requirement replaces its requirements); print its id " +
    "(the service at STUDIO_BASE_URL)",
  run: "Run an assistant on a message, follow the run, and print its result and requirement scores " +
    "(--requirement replaces the stored requirements for this run)",
  delete: "Delete an assistant",
  json: "Print the service's answer as JSON",
  assistantId: "The assistant's id",
  description: "What it is for",
  system: "Its system prompt",
  name: "The assistant's name",
  newName: "Its new name",
  message: "The user's message"
} as const

/**
 * The examples of each `assistants` subcommand's help, and of `assistants`' own.
 *
 * @since 0.2.0
 * @category constants
 */
export const assistantsExamples = {
  command: [
    { command: "studio-effect assistants create \"Tea guide\" -s \"Answer briefly\"", description: "Create one" },
    { command: "studio-effect assistants run asst_123 \"Which tea for the evening?\"", description: "Run it" }
  ],
  list: [{ command: "studio-effect assistants list --json", description: "Every assistant as JSON" }],
  create: [
    {
      command: "studio-effect assistants create \"Tea guide\" -s \"Answer briefly\" -r \"short=At most 40 words\"",
      description: "With a system prompt and a requirement"
    }
  ],
  get: [{ command: "studio-effect assistants get asst_123", description: "An assistant as JSON" }],
  update: [
    { command: "studio-effect assistants update asst_123 --name \"Tea expert\" -b high", description: "Rename it" }
  ],
  run: [
    {
      command: "studio-effect assistants run asst_123 \"Which tea for the evening?\"",
      description: "Run it on a message"
    }
  ],
  delete: [{ command: "studio-effect assistants delete asst_123", description: "Delete it" }]
} as const satisfies Record<string, ReadonlyArray<Example>>

/**
 * An assistant as `assistants list` prints it: its id, then its name.
 *
 * @since 0.1.0
 * @category formatting
 */
export const assistantLine = (assistant: { readonly id: string; readonly name: string }): string =>
  `${assistant.id}  ${assistant.name}`

/**
 * The request that runs an assistant on the user's `message`, with the requirements given (the stored ones
 * when there are none), asking for the requirement scores.
 *
 * @since 0.1.0
 * @category constructors
 */
export const assistantRunRequest = <R>(message: string, requirements: ReadonlyArray<R>) => ({
  input: [{ role: "user" as const, content: message }],
  ...(requirements.length > 0 ? { requirements } : {}),
  include: ["requirements_result" as const]
})
