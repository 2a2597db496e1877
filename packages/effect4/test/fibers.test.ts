/**
 * A fixed, small number of fibers per operation: a request forks the same number whatever its answer, and
 * a stream a fixed number and at most one per network read, whether it carries 8 or 2,000 tokens. Counted
 * as the runtime starts them (`Metric.FiberRuntimeMetrics`) over a real socket, on both transports.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Metric, Redacted, Stream } from "effect"
import { testServer } from "../../conformance/test/support/testServer.js"
import { Chat, StudioClient } from "../src/index.js"
import { ForkCounter } from "./line/index.js"
import { transportLayers } from "./line/index.js"

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
    yield* Effect.provideService(effect, Metric.FiberRuntimeMetrics, counter)
    return counter.count
  })

/**
 * The fibers the client's own code starts, the same on both transports (each runs a request in the fiber
 * that sends it, and reads a body in the fiber that pulls it):
 * - a request: 2, its attempt (which runs in a fiber of its own, so that its timeout can interrupt it) and
 *   the client's watchdog of attempt deadlines (started again when no other attempt is in flight);
 * - a stream: 2, the same until the headers; the idle timeout's watchdog (1), started by the
 *   first read that waits; one per network read, which runs in a fiber of its own so that the watchdog can
 *   interrupt it (it ends with the read, at once when the bytes are already there); and the read after
 *   `[DONE]` (1, and 2 more for its time bound when the body's end is not there yet). A read carries one
 *   write of the server or more, so a stream's count is at most 6 and its writes.
 */
const bounds = { request: 2, stream: 6 }

for (const [name, transport] of transportLayers) {
  describe(`fibers per operation (${name})`, () => {
    it.live("a request forks a fixed number of fibers; a stream a fixed number and at most one per read", () =>
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
        expect(counts.short).toBeGreaterThan(2)
        expect(counts.short).toBeLessThanOrEqual(bounds.stream + streamChunks(8).length)
        expect(counts.long).toBeLessThanOrEqual(bounds.stream + streamChunks(2000).length)
      })))
  })
}
