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
import type { ChatRequest } from "../ChatSchema.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import * as Modules from "./modules.js"
import { printJson, shownOnStdout } from "./stdio.js"

/**
 * The largest prompt read from stdin.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxStdinBytes = 1024 * 1024

const readStdin: Effect.Effect<string, CliFailure, Stdio.Stdio> = Effect.gen(function*() {
  const stdio = yield* Stdio.Stdio
  if (yield* stdio.stdinIsTerminal) {
    return yield* new CliFailure({
      message:
        "No prompt: give one (studio-effect chat \"Hello\") or pipe it on stdin (echo Hello | studio-effect chat)"
    })
  }
  const bytes = yield* stdio.stdin.pipe(
    Stream.mapError((error) => new CliFailure({ message: `Could not read the prompt from stdin: ${error.message}` })),
    Stream.runFoldEffect(
      (): Uint8Array => new Uint8Array(0),
      (read, chunk) =>
        read.length + chunk.length > maxStdinBytes
          ? Effect.fail(
            new CliFailure({ message: `The prompt on stdin is over ${maxStdinBytes} bytes: send a shorter one` })
          )
          : Effect.succeed(concat(read, chunk))
    )
  )
  return new TextDecoder().decode(bytes)
})

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const joined = new Uint8Array(a.length + b.length)
  joined.set(a)
  joined.set(b, a.length)
  return joined
}

const prompt = Argument.String("prompt").pipe(
  Argument.withDescription("What to ask; read from stdin when not given"),
  Argument.optional
)
const model = Flag.String("model").pipe(
  Flag.withDefault("fpmodel-mini"),
  Flag.withDescription("The chat model: fpmodel-mini or fpmodel-large")
)
const system = Flag.String("system").pipe(
  Flag.optional,
  Flag.withDescription("A system message sent before the prompt")
)
const temperature = Flag.Finite("temperature").pipe(
  Flag.optional,
  Flag.withDescription("Sampling temperature, from 0 to 2")
)
const maxTokens = Flag.Int("max-tokens").pipe(
  Flag.optional,
  Flag.withDescription("The longest answer, in tokens")
)
const json = Flag.Boolean("json").pipe(
  Flag.withDefault(false),
  Flag.withDescription("Print the whole completion as JSON instead of streaming its text")
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
).pipe(Command.withDescription("Ask a chat model and stream its answer to the terminal"))
