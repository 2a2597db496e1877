/**
 * A streamed chat completion: the text printed as it arrives, then the completion the chunks add up to.
 *
 *   npx tsx examples/chat-stream.ts
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Stream } from "effect"
import { Chat, StudioError } from "studio-effect"
import { StudioLive, target } from "./layer.js"

const request = {
  model: "fpmodel-mini",
  messages: [{ role: "user" as const, content: "Write two short sentences about lighthouses." }]
}

const program = Effect.gen(function*() {
  yield* Console.log(`Streamed chat completion against ${target}`)
  yield* Chat.stream(request).pipe(
    Chat.textDeltas,
    Stream.runForEach((text) => Effect.sync(() => process.stdout.write(text)))
  )
  yield* Console.log("")
  const completion = yield* Chat.stream(request).pipe(Chat.accumulate)
  yield* Console.log(
    `accumulated: ${completion.choices[0]?.message.content?.length ?? 0} characters, ` +
      `finish_reason ${completion.choices[0]?.finish_reason ?? "-"}, ${completion.usage.total_tokens} tokens`
  )
})

NodeRuntime.runMain(program.pipe(Effect.provide(StudioLive)), StudioError.reportInOneLine)
