/**
 * `studio-effect chat [prompt]`: a chat completion, streamed to the terminal.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as fs from "node:fs/promises"
import { concatBytes } from "studio-effect-core/bytes/concatBytes"
import * as ChatWords from "studio-effect-core/cli/chat"
import { exitCodes } from "studio-effect-core/cli/exitCodes"
import { flagValues } from "studio-effect-core/cli/flagValues"
import * as Chat from "../Chat.js"
import type { ChatRequest } from "../ChatSchema.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import { described } from "./help.js"
import { integer, number } from "./options.js"
import { printJson, shownOnStdout, write } from "./output.js"

const readStdin: Effect.Effect<string, CliFailure> = Effect.gen(function*() {
  if (process.stdin.isTTY) {
    return yield* new CliFailure({ message: ChatWords.promptRefusals.none, exitCode: exitCodes.usage })
  }
  const bytes = yield* Stream.fromAsyncIterable(
    process.stdin as AsyncIterable<Uint8Array>,
    (error) => new CliFailure({ message: ChatWords.promptRefusals.unreadable(String(error)) })
  ).pipe(
    Stream.runFoldEffect(
      new Uint8Array(0) as Uint8Array,
      (read, chunk) =>
        read.length + chunk.length > ChatWords.maxStdinBytes
          ? Effect.fail(new CliFailure({ message: ChatWords.promptRefusals.tooLarge }))
          : Effect.succeed(concatBytes([read, chunk], read.length + chunk.length))
    )
  )
  return new TextDecoder().decode(bytes)
})

const prompt = Args.text({ name: "prompt" }).pipe(
  Args.withDescription(ChatWords.chatDescriptions.prompt),
  Args.optional
)
const model = Options.text("model").pipe(
  Options.withAlias("m"),
  Options.withDefault(ChatWords.defaultChatModel),
  Options.withDescription(ChatWords.chatDescriptions.model)
)
const system = Options.text("system").pipe(
  Options.withAlias("s"),
  Options.optional,
  Options.withDescription(ChatWords.chatDescriptions.system)
)
const temperature = number("temperature").pipe(
  Options.withAlias("t"),
  Options.optional,
  Options.withDescription(ChatWords.chatDescriptions.temperature)
)
const topP = number("top-p").pipe(
  Options.optional,
  Options.withDescription(ChatWords.chatDescriptions.topP)
)
const stop = Options.text("stop").pipe(
  Options.repeated,
  Options.withDefault<ReadonlyArray<string>>([]),
  Options.withDescription(ChatWords.chatDescriptions.stop)
)
const maxTokens = integer("max-tokens").pipe(
  Options.optional,
  Options.withDescription(ChatWords.chatDescriptions.maxTokens)
)
const documents = Options.text("document").pipe(
  Options.withAlias("d"),
  Options.repeated,
  Options.withDefault<ReadonlyArray<string>>([]),
  Options.withDescription(ChatWords.chatDescriptions.document)
)
const jsonMode = Options.boolean("json-mode").pipe(
  Options.withDescription(ChatWords.chatDescriptions.jsonMode)
)
const json = Options.boolean("json").pipe(
  Options.withDescription(ChatWords.chatDescriptions.json)
)

/** A `--document` file as a document of the request. */
const readDocument = (file: string) =>
  Effect.flatMap(
    Effect.promise(() => ChatWords.readDocument(file, (path) => fs.open(path, "r"))),
    (read) =>
      read._tag === "Invalid"
        ? Effect.fail(new CliFailure({ message: read.message }))
        : Effect.succeed({ id: read.id, content: read.content })
  )

/**
 * The `chat` command.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "chat",
  {
    prompt,
    model,
    system,
    temperature,
    topP,
    stop,
    maxTokens,
    documents,
    jsonMode,
    json,
    reference: Client.reference
  },
  (options) =>
    Effect.gen(function*() {
      const text = Option.isSome(options.prompt) ? options.prompt.value : yield* readStdin
      if (text.trim() === "") {
        return yield* new CliFailure({ message: ChatWords.promptRefusals.empty, exitCode: exitCodes.usage })
      }
      const request: ChatRequest = ChatWords.chatRequest({
        ...flagValues(options),
        prompt: text,
        documents: yield* Effect.forEach(options.documents, readDocument)
      })
      if (options.json) {
        const completion = yield* Chat.create(request)
        return yield* printJson(completion)
      }
      const shown = yield* shownOnStdout
      yield* Chat.stream(request).pipe(Chat.textDeltas, Stream.runForEach((text) => write(shown(text))))
      yield* write("\n")
    }).pipe(Client.provide(options.reference))
).pipe(Command.withDescription(described(ChatWords.chatDescriptions.command, ChatWords.chatExamples)))
