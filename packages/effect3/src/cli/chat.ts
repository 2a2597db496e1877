/**
 * `studio-effect chat [prompt]`: a chat completion, streamed to the terminal.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Chat from "../Chat.js"
import type { ChatRequest } from "../ChatSchema.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import { integer, number } from "./options.js"
import { printJson, shownOnStdout, write } from "./output.js"

/**
 * The largest prompt read from stdin.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxStdinBytes = 1024 * 1024

const readStdin: Effect.Effect<string, CliFailure> = Effect.gen(function*() {
  if (process.stdin.isTTY) {
    return yield* new CliFailure({
      message:
        "No prompt: give one (studio-effect chat \"Hello\") or pipe it on stdin (echo Hello | studio-effect chat)"
    })
  }
  const bytes = yield* Stream.fromAsyncIterable(
    process.stdin as AsyncIterable<Uint8Array>,
    (error) => new CliFailure({ message: `Could not read the prompt from stdin: ${String(error)}` })
  ).pipe(
    Stream.runFoldEffect(new Uint8Array(0) as Uint8Array, (read, chunk) =>
      read.length + chunk.length > maxStdinBytes
        ? Effect.fail(
          new CliFailure({ message: `The prompt on stdin is over ${maxStdinBytes} bytes: send a shorter one` })
        )
        : Effect.succeed(concat(read, chunk)))
  )
  return new TextDecoder().decode(bytes)
})

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const joined = new Uint8Array(a.length + b.length)
  joined.set(a)
  joined.set(b, a.length)
  return joined
}

const prompt = Args.text({ name: "prompt" }).pipe(
  Args.withDescription("What to ask; read from stdin when not given"),
  Args.optional
)
const model = Options.text("model").pipe(
  Options.withDefault("fpmodel-mini"),
  Options.withDescription("The chat model: fpmodel-mini or fpmodel-large")
)
const system = Options.text("system").pipe(
  Options.optional,
  Options.withDescription("A system message sent before the prompt")
)
const temperature = number("temperature").pipe(
  Options.optional,
  Options.withDescription("Sampling temperature, from 0 to 2")
)
const maxTokens = integer("max-tokens").pipe(
  Options.optional,
  Options.withDescription("The longest answer, in tokens")
)
const json = Options.boolean("json").pipe(
  Options.withDescription("Print the whole completion as JSON instead of streaming its text")
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
      if (text.trim() === "") return yield* new CliFailure({ message: "The prompt is empty: say something" })
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
    }).pipe(Effect.provide(Client.layer(options.reference)))
).pipe(Command.withDescription("Ask a chat model and stream its answer to the terminal"))
