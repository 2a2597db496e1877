/**
 * A fixed, small number of fibers per operation: a request forks the same number whatever its answer, and
 * a stream a fixed number, and at most one per network read, whether it carries 8 or 2,000 tokens (on the
 * Effect 3 line none per read). Counted as the runtime starts them (`countFibers`) over a real socket, on
 * each transport.
 */
import {
  countFibers,
  describe,
  Effect,
  expect,
  fiberBudget,
  it,
  Layer,
  Redacted,
  Stream,
  transportLayers
} from "@studio-effect/line"
import { Chat, StudioClient } from "studio-effect"
import { testServer } from "./support/testServer.js"

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
    const count = { started: 0, ended: 0 }
    yield* countFibers(effect, count)
    return count.started
  })

for (const [name, transport] of transportLayers) {
  const bounds = fiberBudget(name)
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
        expect(counts.short).toBeGreaterThanOrEqual(bounds.streamAtLeast)
        expect(counts.short).toBeLessThanOrEqual(bounds.stream + bounds.perRead * streamChunks(8).length)
        expect(counts.long).toBeLessThanOrEqual(bounds.stream + bounds.perRead * streamChunks(2000).length)
        // where a stream starts no fiber per read, its count does not grow with its reads
        if (bounds.perRead === 0) expect(counts.long).toBe(counts.short)
      })))
  })
}
