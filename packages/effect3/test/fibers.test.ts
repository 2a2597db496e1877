/**
 * A fixed, small number of fibers per operation: a request forks the same number whatever its answer, and
 * a stream forks the same number whether it carries 8 or 2,000 tokens in as many network reads. Counted
 * with a `Supervisor` over a real socket, on both transports.
 */
import { FetchHttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted, Stream } from "effect"
import { testServer } from "../../conformance/test/support/testServer.js"
import { Chat, StudioClient } from "../src/index.js"
import { UndiciHttpClient } from "../src/undici/index.js"
import { ForkCounter } from "./line/index.js"

const id = "chat-0123456789abcdef0123456789abcdef"
const completion = {
  id,
  choices: [{ index: 0, message: { role: "assistant", content: "Hi", tool_calls: null }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
}
const event = (content: string) => `data: ${JSON.stringify({ id, choices: [{ index: 0, delta: { content } }] })}\n\n`
/** A stream of `tokens` content events, each its own write (so, as a rule, its own network read). */
const streamChunks = (tokens: number) => [
  `data: ${JSON.stringify({ id, choices: [{ index: 0, delta: { role: "assistant" } }] })}\n\n`,
  ...Array.from({ length: tokens }, (_, i) => event(`t${i} `)),
  "data: [DONE]\n\n"
]
const request = { model: "fpmodel-mini", messages: [{ role: "user" as const, content: "Hi" }] }

const forksOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const counter = new ForkCounter()
    yield* Effect.supervised(effect, counter)
    return counter.count
  })

for (
  const [name, transport, bounds] of [
    ["FetchHttpClient", FetchHttpClient.layer, { request: 4, stream: 8 }],
    ["NodeHttpClient.layerUndici", NodeHttpClient.layerUndici, { request: 4, stream: 8 }],
    // the SDK's transport on the live clock: the attempt timeout and a stream's idle watch are timers, and
    // a stream's body is read in the consuming fiber
    ["UndiciHttpClient.layer", UndiciHttpClient.layer, { request: 1, stream: 1 }]
  ] as const
) {
  describe(`fibers per operation (${name})`, () => {
    it.live("a request forks a fixed number of fibers; a stream's count does not grow with its reads", () =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* testServer((seen) =>
          seen.body.includes("\"stream\":true")
            ? { chunks: streamChunks(Number(/"n(\d+)"/.exec(seen.body)?.[1] ?? "8")) }
            : { json: completion }
        )
        const client = StudioClient.layer({ apiKey: Redacted.make("sk-test"), baseUrl: server.url }).pipe(
          Layer.provide(transport),
          Layer.orDie
        )
        const streamOf = (tokens: number) =>
          Chat.stream({ ...request, messages: [{ role: "user", content: `n${tokens}` }] }).pipe(
            Chat.textDeltas,
            Stream.runCount
          )
        const counts = yield* Effect.gen(function*() {
          yield* Chat.create(request) // warm the connection pool
          const create = yield* forksOf(Chat.create(request))
          const createAgain = yield* forksOf(Chat.create(request))
          let tokens = 0
          const short = yield* forksOf(Effect.map(streamOf(8), (n) => (tokens += n)))
          const long = yield* forksOf(Effect.map(streamOf(2000), (n) => (tokens += n)))
          return { create, createAgain, short, long, tokens }
        }).pipe(Effect.provide(client))
        expect(counts.tokens).toBe(2008)
        expect(counts.create).toBe(counts.createAgain)
        expect(counts.create).toBeLessThanOrEqual(bounds.request)
        expect(counts.long).toBe(counts.short)
        expect(counts.short).toBeLessThanOrEqual(bounds.stream)
      })))
  })
}
