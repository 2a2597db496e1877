/**
 * A chat completion: one question, one answer, with its token usage.
 *
 *   npx tsx examples/chat.ts
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect } from "effect"
import { Chat, StudioError } from "studio-effect"
import { StudioLive, target } from "./layer.js"

const program = Effect.gen(function*() {
  yield* Console.log(`Chat completion against ${target}`)
  const completion = yield* Chat.create({
    model: "fpmodel-mini",
    messages: [
      { role: "system", content: "You are a concise assistant." },
      { role: "user", content: "Give me three words that describe a calm sea." }
    ],
    max_tokens: 64,
    temperature: 0.4
  })
  const choice = completion.choices[0]
  yield* Console.log(`answer: ${choice?.message.content ?? "(none)"}`)
  yield* Console.log(`finish_reason: ${choice?.finish_reason ?? "-"}`)
  yield* Console.log(
    `usage: ${completion.usage.prompt_tokens} prompt + ${completion.usage.completion_tokens} completion tokens`
  )
})

NodeRuntime.runMain(program.pipe(Effect.provide(StudioLive)), StudioError.reportInOneLine)
