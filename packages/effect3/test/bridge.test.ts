/**
 * `Chat.stream` outside Effect: as an `AsyncIterable`, a web `ReadableStream`, and SSE bytes to forward to
 * a browser. Over a real socket on both transports, and in memory: the same chunks as the Effect stream,
 * one effect per network read (not per element), errors as their `StudioError`, and the connection released
 * when the consumer leaves early.
 */
import { FetchHttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Layer, ManagedRuntime, Redacted, Stream, Supervisor } from "effect"
import { testServer } from "../../conformance/test/support/testServer.js"
import { Chat, type ChatSchema, StudioClient } from "../src/index.js"
import { streamOf } from "../src/internal/stream/read.js"
import { decodeEventsWith } from "../src/internal/stream/sse.js"
import * as Reference from "../src/reference/index.js"
import { ForkCounter } from "./line/index.js"

const id = "chat-0123456789abcdef0123456789abcdef"
const chunkEvent = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ id, choices: [{ index: 0, delta, logprobs: null, finish_reason: null, ...extra }] })}\n\n`
const tokens = Array.from({ length: 40 }, (_, i) => `w${i} é中😀 `)
/** Each token its own write; the last write cuts an event in two. */
const streamChunks = [
  chunkEvent({ role: "assistant" }),
  ...tokens.map((token) => chunkEvent({ content: token })),
  chunkEvent({ content: "" }, { finish_reason: "stop" }),
  "data: [DO",
  "NE]\n\n"
]
const request: ChatSchema.ChatRequest = { model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] }

const transports = [
  ["FetchHttpClient", FetchHttpClient.layer],
  ["NodeHttpClient.layerUndici", NodeHttpClient.layerUndici]
] as const

for (const [name, transport] of transports) {
  describe(`Chat.stream outside Effect (${name})`, () => {
    const withRuntime = <A>(
      chunks: ReadonlyArray<string>,
      body: (
        runtime: ManagedRuntime.ManagedRuntime<StudioClient.StudioClient, never>,
        closedSockets: () => number
      ) => Promise<A>,
      options: { readonly end?: boolean } = {}
    ) =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* testServer(() => ({ chunks, ...(options.end === false ? { end: false } : {}) }))
        const runtime = ManagedRuntime.make(
          StudioClient.layer({ apiKey: Redacted.make("sk-test"), baseUrl: server.url, maxRetries: 0 }).pipe(
            Layer.provide(transport),
            Layer.orDie
          )
        )
        return yield* Effect.promise(() => body(runtime, server.closedSockets).finally(() => runtime.dispose()))
      }))

    it.live("an AsyncIterable of text gives every token, as the Effect stream does", () =>
      withRuntime(streamChunks, async (runtime) => {
        const texts: Array<string> = []
        for await (const text of Chat.toAsyncIterable(Chat.textDeltas(Chat.stream(request)), runtime)) {
          texts.push(text)
        }
        const expected = await runtime.runPromise(Stream.runCollect(Chat.textDeltas(Chat.stream(request))))
        expect(texts).toEqual(Chunk.toReadonlyArray(expected))
        expect(texts.join("")).toBe(tokens.join(""))
      }))

    it.live("a ReadableStream of chunks gives the chunks of the Effect stream", () =>
      withRuntime(streamChunks, async (runtime) => {
        const reader = Chat.stream(request).pipe(Chat.toReadableStream(runtime)).getReader()
        const chunks: Array<ChatSchema.ChatCompletionChunk> = []
        for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value)
        const expected = await runtime.runPromise(Stream.runCollect(Chat.stream(request)))
        expect(chunks).toEqual(Chunk.toReadonlyArray(expected))
        expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop")
      }))

    it.live("SSE bytes decode back to the same chunks and end with [DONE]", () =>
      withRuntime(streamChunks, async (runtime) => {
        const bytes = Chat.stream(request).pipe(Chat.toEventStream(runtime))
        const text = await new Response(bytes).text()
        expect(text.endsWith("data: [DONE]\n\n")).toBe(true)
        const decoded = await Effect.runPromise(
          Stream.runCollect(
            Stream.unwrapScoped(Effect.map(
              decodeEventsWith("GET", "forwarded", (data) => JSON.parse(data) as unknown)(
                Stream.make(new TextEncoder().encode(text))
              ),
              streamOf
            ))
          )
        )
        const expected = await runtime.runPromise(Stream.runCollect(Chat.stream(request)))
        expect(Chunk.toReadonlyArray(decoded)).toEqual(Chunk.toReadonlyArray(expected))
      }))

    it.live("a failed stream: the iterator throws its StudioError, the SSE bytes end with an error event", () =>
      withRuntime(streamChunks.slice(0, 5), async (runtime) => {
        const texts: Array<string> = []
        const thrown = await (async () => {
          for await (const text of Chat.toAsyncIterable(Chat.textDeltas(Chat.stream(request)), runtime)) {
            texts.push(text)
          }
        })().then(() => undefined, (error: unknown) => error)
        expect(texts).toEqual(tokens.slice(0, 4))
        expect((thrown as { _tag?: string })?._tag).toBe("TransportError")
        const forwarded = await new Response(Chat.stream(request).pipe(Chat.toEventStream(runtime))).text()
        expect(forwarded).not.toContain("data: [DONE]")
        expect(forwarded).toMatch(/event: error\ndata: \{"error":\{"type":"TransportError","message":".+"\}\}\n\n$/)
      }))

    it.live("leaving the loop early releases the connection", () =>
      withRuntime(streamChunks.slice(0, 5), async (runtime, closedSockets) => {
        for await (const text of Chat.toAsyncIterable(Chat.textDeltas(Chat.stream(request)), runtime)) {
          expect(text).toBe(tokens[0])
          break
        }
        for (let turn = 0; turn < 1000 && closedSockets() === 0; turn++) {
          await new Promise((resolve) => setImmediate(resolve))
        }
        expect(closedSockets()).toBe(1)
      }, { end: false }))
  })
}

describe("Chat.stream outside Effect (in memory)", () => {
  it.live("one effect per read of the stream, not per element", () =>
    Effect.promise(async () => {
      const counter = new ForkCounter()
      const runtime = ManagedRuntime.make(Layer.mergeAll(Reference.layerClient(), Supervisor.addSupervisor(counter)))
      try {
        // three reads of 1, 50 and 50 elements
        const reads = Stream.fromChunks(
          Chunk.range(1, 1),
          Chunk.range(2, 51),
          Chunk.range(52, 101)
        )
        await runtime.runtime()
        const before = counter.count
        let count = 0
        for await (const _ of Chat.toAsyncIterable(reads, runtime)) count++
        expect(count).toBe(101)
        // one run per read, and one that finds the end
        expect(counter.count - before).toBe(4)
        const texts: Array<string> = []
        for await (const text of Chat.toAsyncIterable(Chat.textDeltas(Chat.stream(request)), runtime)) texts.push(text)
        expect(texts.length).toBeGreaterThan(1)
      } finally {
        await runtime.dispose()
      }
    }))
})
