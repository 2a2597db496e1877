/**
 * `studio-effect chat [prompt]`: a chat completion, streamed to the terminal.
 */
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stdio from "effect/Stdio"
import * as Stream from "effect/Stream"
import * as fs from "node:fs/promises"
import { concatBytes } from "studio-effect-core/bytes/concatBytes"
import * as ChatWords from "studio-effect-core/cli/chat"
import { exitCodes } from "studio-effect-core/cli/exitCodes"
import { flagValues } from "studio-effect-core/cli/flagValues"
import type { ChatRequest } from "../ChatSchema.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import * as Modules from "./modules.js"
import { printJson, shownOnStdout } from "./stdio.js"

const readStdin: Effect.Effect<string, CliFailure, Stdio.Stdio> = Effect.gen(function*() {
  const stdio = yield* Stdio.Stdio
  if (yield* stdio.stdinIsTerminal) {
    return yield* new CliFailure({ message: ChatWords.promptRefusals.none, exitCode: exitCodes.usage })
  }
  const bytes = yield* stdio.stdin.pipe(
    Stream.mapError((error) => new CliFailure({ message: ChatWords.promptRefusals.unreadable(error.message) })),
    Stream.runFoldEffect(
      (): Uint8Array => new Uint8Array(0),
      (read, chunk) =>
        read.length + chunk.length > ChatWords.maxStdinBytes
          ? Effect.fail(new CliFailure({ message: ChatWords.promptRefusals.tooLarge }))
          : Effect.succeed(concatBytes([read, chunk], read.length + chunk.length))
    )
  )
  return new TextDecoder().decode(bytes)
})

/** A `--document` file as a document of the request. */
const readDocument = (file: string) =>
  Effect.flatMap(
    Effect.promise(() => ChatWords.readDocument(file, (path) => fs.open(path, "r"))),
    (read) =>
      read._tag === "Invalid"
        ? Effect.fail(new CliFailure({ message: read.message }))
        : Effect.succeed({ id: read.id, content: read.content })
  )

const prompt = Argument.String("prompt").pipe(
  Argument.withDescription(ChatWords.chatDescriptions.prompt),
  Argument.optional
)
const model = Flag.String("model").pipe(
  Flag.withAlias("m"),
  Flag.withDefault(ChatWords.defaultChatModel),
  Flag.withDescription(ChatWords.chatDescriptions.model)
)
const system = Flag.String("system").pipe(
  Flag.withAlias("s"),
  Flag.optional,
  Flag.withDescription(ChatWords.chatDescriptions.system)
)
const temperature = Flag.Finite("temperature").pipe(
  Flag.withAlias("t"),
  Flag.optional,
  Flag.withDescription(ChatWords.chatDescriptions.temperature)
)
const topP = Flag.Finite("top-p").pipe(
  Flag.optional,
  Flag.withDescription(ChatWords.chatDescriptions.topP)
)
const stop = Flag.String("stop").pipe(
  Flag.atLeast(0),
  Flag.withDescription(ChatWords.chatDescriptions.stop)
)
const maxTokens = Flag.Int("max-tokens").pipe(
  Flag.optional,
  Flag.withDescription(ChatWords.chatDescriptions.maxTokens)
)
const documents = Flag.String("document").pipe(
  Flag.withAlias("d"),
  Flag.atLeast(0),
  Flag.withDescription(ChatWords.chatDescriptions.document)
)
const jsonMode = Flag.Boolean("json-mode").pipe(
  Flag.withDefault(false),
  Flag.withDescription(ChatWords.chatDescriptions.jsonMode)
)
const json = Flag.Boolean("json").pipe(
  Flag.withDefault(false),
  Flag.withDescription(ChatWords.chatDescriptions.json)
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
      const Chat = yield* Modules.Chat
      if (options.json) {
        const completion = yield* Chat.create(request)
        return yield* printJson(completion)
      }
      const stdio = yield* Stdio.Stdio
      const shown = yield* shownOnStdout
      yield* Chat.stream(request).pipe(
        Chat.textDeltas,
        Stream.map(shown),
        Stream.concat(Stream.succeed("\n")),
        Stream.run(stdio.stdout())
      )
    }).pipe(Client.provide(options.reference))
).pipe(Command.withDescription(ChatWords.chatDescriptions.command), Command.withExamples(ChatWords.chatExamples))
