import {
  collect,
  describe,
  Effect,
  Exit,
  expect,
  failures,
  Fiber,
  fork,
  it,
  Layer,
  NodeHttpClient,
  Redacted,
  Stream,
  TestClock,
  transportLayers
} from "@studio-effect/line"
import type { ChatSchema } from "studio-effect"
import { Chat, StudioClient } from "studio-effect"
import { clientOf, type ScriptedResponse, testServer } from "./support/testServer.js"

const completion = {
  id: "chat-0123456789abcdef0123456789abcdef",
  choices: [{
    index: 0,
    message: { role: "assistant", content: "Hello there", tool_calls: null },
    logprobs: null,
    finish_reason: "stop"
  }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }
}

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: completion.id,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null, ...extra }]
  })

const streamEvents = [
  chunk({ role: "assistant" }),
  chunk({ content: "Hello" }),
  chunk({ content: " there" }),
  JSON.stringify({
    id: completion.id,
    choices: [{ index: 0, delta: { content: "" }, logprobs: null, finish_reason: "stop" }],
    usage: completion.usage
  })
]

const sseBody = (events: ReadonlyArray<string>, done = true) =>
  events.map((data) => `data: ${data}\n\n`).join("") + (done ? "data: [DONE]\n\n" : "")

const request: ChatSchema.ChatRequest = { model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] }

const withServer = <A, E>(
  handler: (index: number) => ScriptedResponse,
  body: (
    server: { url: string; requests: Array<{ url: string; body: string; headers: any }> }
  ) => Effect.Effect<A, E, any>
) => Effect.scoped(Effect.flatMap(testServer((_, index) => handler(index)), (server) => body(server)))

describe("StudioClient.layer", () => {
  // the client's layer as an application writes it, with a transport of its own choosing
  it.effect("works over NodeHttpClient.layerUndici", () =>
    withServer(() => ({ json: completion }), (server) =>
      Effect.gen(function*() {
        const layer = StudioClient.layer({ apiKey: Redacted.make("k"), baseUrl: server.url }).pipe(
          Layer.provide(NodeHttpClient.layerUndici)
        )
        const result = yield* Chat.create(request).pipe(Effect.provide(layer))
        expect(result.id).toBe(completion.id)
        expect(server.requests[0]!.headers["authorization"]).toBe("Bearer k")
      })))
})

for (const [name, transport] of transportLayers) {
  describe(`Chat.create (${name})`, () => {
    it.effect("sends the request with auth, user agent and JSON body, and decodes the completion", () =>
      withServer(() => ({ json: completion }), (server) =>
        Effect.gen(function*() {
          const result = yield* Chat.create(request).pipe(Effect.provide(clientOf(server.url, {}, transport)))
          expect(result.choices[0]!.message.content).toBe("Hello there")
          expect(result.usage.total_tokens).toBe(5)
          const sent = server.requests[0]!
          expect(sent.url).toBe("/studio/v1/chat/completions")
          expect(sent.headers["authorization"]).toBe("Bearer sk-test-key")
          expect(sent.headers["content-type"]).toBe("application/json")
          expect(sent.headers["user-agent"]).toMatch(/^studio-effect\/\d+\.\d+\.\d+/)
          expect(JSON.parse(sent.body)).toEqual(request)
        })))
  })

  describe(`Chat.stream (${name})`, () => {
    it.effect("decodes chunks up to [DONE] and accumulates them into the completion", () =>
      withServer(() => ({ chunks: [sseBody(streamEvents)] }), (server) =>
        Effect.gen(function*() {
          const layer = clientOf(server.url, {}, transport)
          const text = yield* Chat.stream(request).pipe(Chat.textDeltas, collect, Effect.provide(layer))
          expect(text.join("")).toBe("Hello there")
          const accumulated = yield* Chat.stream(request).pipe(Chat.accumulate, Effect.provide(layer))
          expect(accumulated).toEqual(completion)
          expect(JSON.parse(server.requests[0]!.body).stream).toBe(true)
          expect(server.requests[0]!.headers["accept"]).toBe("text/event-stream")
        })))

    it.effect("fails with TransportError when the body ends before [DONE]", () =>
      withServer(() => ({ chunks: [sseBody(streamEvents, false)] }), (server) =>
        Effect.gen(function*() {
          const exit = yield* Chat.stream(request).pipe(
            Stream.runDrain,
            Effect.provide(clientOf(server.url, {}, transport)),
            Effect.exit
          )
          expect(Exit.isFailure(exit) && failures(exit.cause).map((error) => error._tag)).toEqual(["TransportError"])
        })))

    it.effect("retries a 503 before the stream starts, with backoff under the test clock", () =>
      withServer(
        (index) => index === 0 ? { status: 503, json: { detail: "busy" } } : { chunks: [sseBody(streamEvents)] },
        (server) =>
          Effect.gen(function*() {
            const fiber = yield* Chat.stream(request).pipe(
              Chat.accumulate,
              Effect.provide(clientOf(server.url, {}, transport)),
              fork
            )
            while (server.requests.length < 1) yield* Effect.promise(() => new Promise((r) => setImmediate(r)))
            yield* TestClock.adjust("10 seconds")
            const result = yield* Fiber.join(fiber)
            expect(result.choices[0]!.message.content).toBe("Hello there")
            expect(server.requests.length).toBe(2)
          })
      ))
  })
}
