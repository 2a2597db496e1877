/**
 * In-process CPU time of one `Chat.create` over a transport that answers at once (no socket), for profiling:
 * `npx tsx bench/micro-request.ts [requests]`.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import { chatRequest, completionBody } from "../../../bench/fixtures.js"
import * as Chat from "../src/Chat.js"
import { ChatCompletion, ChatRequest } from "../src/ChatSchema.js"
import { validateRequest } from "../src/internal/schema/validate.js"
import * as StudioClient from "../src/StudioClient.js"

const count = Number(process.argv[2] ?? "20000")

const transport = HttpClient.make((request) =>
  Effect.succeed(
    HttpClientResponse.fromWeb(
      request,
      new Response(completionBody, { status: 200, headers: { "content-type": "application/json" } })
    )
  )
)

const instant = Layer.succeed(HttpClient.HttpClient, transport)

const runtime = ManagedRuntime.make(
  StudioClient.layer({ apiKey: Redacted.make("k"), baseUrl: "http://127.0.0.1:1" }).pipe(Layer.provide(instant))
)

const measure = async (name: string, effect: Effect.Effect<unknown, unknown, StudioClient.StudioClient>) => {
  const samples: Array<number> = []
  for (let rep = 0; rep < 5; rep++) {
    const start = process.cpuUsage()
    await runtime.runPromise(Effect.forEach(Array.from({ length: count }), () => effect, { discard: true }))
    const used = process.cpuUsage(start)
    samples.push((used.user + used.system) / count)
  }
  samples.sort((a, b) => a - b)
  console.log(`${name.padEnd(40)} ${samples[2]!.toFixed(1)} µs of CPU`)
}

await measure("new Response + text (transport alone)", Effect.promise(() => new Response(completionBody).text()))
await measure("validateRequest(ChatRequest)", validateRequest("chat", ChatRequest, chatRequest))
const transportText = Effect.flatMap(
  transport.post("http://127.0.0.1:1/studio/v1/chat/completions"),
  (response) => response.text
)
await measure("transport execute + text", transportText)
await measure("same, withTracerEnabled(false)", transportText.pipe(Effect.withTracerEnabled(false)))
await measure(
  "timeoutFail(succeed)",
  Effect.timeoutFail(Effect.succeed(1), { duration: "1 minute", onTimeout: () => "x" })
)
await measure(
  "client.json",
  Effect.flatMap(StudioClient.StudioClient, (client) =>
    client.json({
      operation: "chat",
      method: "POST",
      path: "/studio/v1/chat/completions",
      body: chatRequest,
      response: ChatCompletion
    }))
)
await measure("Chat.create", Chat.create(chatRequest))
await runtime.dispose()
