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
import { concatBytes } from "studio-effect-core/bytes/concatBytes"
import { chatDescriptions, defaultChatModel, maxStdinBytes, promptRefusals } from "studio-effect-core/cli/chat"
import type { ChatRequest } from "../ChatSchema.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import * as Modules from "./modules.js"
import { printJson, shownOnStdout } from "./stdio.js"

const readStdin: Effect.Effect<string, CliFailure, Stdio.Stdio> = Effect.gen(function*() {
  const stdio = yield* Stdio.Stdio
  if (yield* stdio.stdinIsTerminal) {
    return yield* new CliFailure({ message: promptRefusals.none })
  }
  const bytes = yield* stdio.stdin.pipe(
    Stream.mapError((error) => new CliFailure({ message: promptRefusals.unreadable(error.message) })),
    Stream.runFoldEffect(
      (): Uint8Array => new Uint8Array(0),
      (read, chunk) =>
        read.length + chunk.length > maxStdinBytes
          ? Effect.fail(new CliFailure({ message: promptRefusals.tooLarge }))
          : Effect.succeed(concatBytes([read, chunk], read.length + chunk.length))
    )
  )
  return new TextDecoder().decode(bytes)
})

const prompt = Argument.String("prompt").pipe(
  Argument.withDescription(chatDescriptions.prompt),
  Argument.optional
)
const model = Flag.String("model").pipe(
  Flag.withDefault(defaultChatModel),
  Flag.withDescription(chatDescriptions.model)
)
const system = Flag.String("system").pipe(
  Flag.optional,
  Flag.withDescription(chatDescriptions.system)
)
const temperature = Flag.Finite("temperature").pipe(
  Flag.optional,
  Flag.withDescription(chatDescriptions.temperature)
)
const maxTokens = Flag.Int("max-tokens").pipe(
  Flag.optional,
  Flag.withDescription(chatDescriptions.maxTokens)
)
const json = Flag.Boolean("json").pipe(
  Flag.withDefault(false),
  Flag.withDescription(chatDescriptions.json)
)

/**
 * The `chat` command.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "chat",
  { prompt, model, system, temperature, maxTokens, json, reference: Client.reference },
  (options) =>
    Effect.gen(function*() {
      const text = Option.isSome(options.prompt) ? options.prompt.value : yield* readStdin
      if (text.trim() === "") return yield* new CliFailure({ message: promptRefusals.empty })
      const request: ChatRequest = {
        model: options.model,
        messages: [
          ...Option.match(options.system, {
            onNone: () => [],
            onSome: (content) => [{ role: "system" as const, content }]
          }),
          { role: "user", content: text }
        ],
        ...Option.match(options.temperature, { onNone: () => ({}), onSome: (temperature) => ({ temperature }) }),
        ...Option.match(options.maxTokens, { onNone: () => ({}), onSome: (max_tokens) => ({ max_tokens }) })
      }
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
).pipe(Command.withDescription(chatDescriptions.command))
