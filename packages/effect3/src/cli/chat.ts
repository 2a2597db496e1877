/**
 * `studio-effect chat [prompt]`: a chat completion, streamed to the terminal.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { concatBytes } from "studio-effect-core/bytes/concatBytes"
import { chatDescriptions, defaultChatModel, maxStdinBytes, promptRefusals } from "studio-effect-core/cli/chat"
import * as Chat from "../Chat.js"
import type { ChatRequest } from "../ChatSchema.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import { integer, number } from "./options.js"
import { printJson, shownOnStdout, write } from "./output.js"

const readStdin: Effect.Effect<string, CliFailure> = Effect.gen(function*() {
  if (process.stdin.isTTY) {
    return yield* new CliFailure({ message: promptRefusals.none })
  }
  const bytes = yield* Stream.fromAsyncIterable(
    process.stdin as AsyncIterable<Uint8Array>,
    (error) => new CliFailure({ message: promptRefusals.unreadable(String(error)) })
  ).pipe(
    Stream.runFoldEffect(new Uint8Array(0) as Uint8Array, (read, chunk) =>
      read.length + chunk.length > maxStdinBytes
        ? Effect.fail(new CliFailure({ message: promptRefusals.tooLarge }))
        : Effect.succeed(concatBytes([read, chunk], read.length + chunk.length)))
  )
  return new TextDecoder().decode(bytes)
})

const prompt = Args.text({ name: "prompt" }).pipe(
  Args.withDescription(chatDescriptions.prompt),
  Args.optional
)
const model = Options.text("model").pipe(
  Options.withDefault(defaultChatModel),
  Options.withDescription(chatDescriptions.model)
)
const system = Options.text("system").pipe(
  Options.optional,
  Options.withDescription(chatDescriptions.system)
)
const temperature = number("temperature").pipe(
  Options.optional,
  Options.withDescription(chatDescriptions.temperature)
)
const maxTokens = integer("max-tokens").pipe(
  Options.optional,
  Options.withDescription(chatDescriptions.maxTokens)
)
const json = Options.boolean("json").pipe(
  Options.withDescription(chatDescriptions.json)
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
      if (options.json) {
        const completion = yield* Chat.create(request)
        return yield* printJson(completion)
      }
      const shown = yield* shownOnStdout
      yield* Chat.stream(request).pipe(Chat.textDeltas, Stream.runForEach((text) => write(shown(text))))
      yield* write("\n")
    }).pipe(Client.provide(options.reference))
).pipe(Command.withDescription(chatDescriptions.command))
