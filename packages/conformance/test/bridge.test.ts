/**
 * `Chat.stream` outside Effect: as an `AsyncIterable`, a web `ReadableStream`, and SSE bytes to forward to
 * a browser. Over a real socket on both transports, and in memory: the same chunks as the Effect stream,
 * one pull per network read (not per element), errors as their `StudioError`, and the connection released
 * when the consumer leaves early.
 */
import {
  bridgeFibers,
  collect,
  countFibers,
  currentRuntime,
  describe,
  Effect,
  expect,
  it,
  Layer,
  ManagedRuntime,
  Redacted,
  Stream,
  transportLayers
} from "@studio-effect/line"
import { Chat, type ChatSchema, StudioClient } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { testServer } from "./support/testServer.js"

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
const decoder = new TextDecoder()
const request: ChatSchema.ChatRequest = { model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] }

/** The `data` of each event of SSE text, in order (each event a single `data` line, as the SDK writes them). */
const eventsOf = (text: string): Array<string> =>
  text.split("\n\n").filter((event) => event !== "").map((event) => {
    expect(event).toMatch(/^data: [^\n]*$/)
    return event.slice("data: ".length)
  })

for (const [name, transport] of transportLayers) {
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
        const expected = await runtime.runPromise(collect(Chat.textDeltas(Chat.stream(request))))
        expect(texts).toEqual(expected)
        expect(texts.join("")).toBe(tokens.join(""))
      }))

    it.live("a ReadableStream of chunks gives the chunks of the Effect stream", () =>
      withRuntime(streamChunks, async (runtime) => {
        const reader = Chat.stream(request).pipe(Chat.toReadableStream(runtime)).getReader()
        const chunks: Array<ChatSchema.ChatCompletionChunk> = []
        for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value)
        const expected = await runtime.runPromise(collect(Chat.stream(request)))
        expect(chunks).toEqual(expected)
        expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop")
      }))

    it.live("SSE bytes decode back to the same chunks and end with [DONE]", () =>
      withRuntime(streamChunks, async (runtime) => {
        const bytes = Chat.stream(request).pipe(Chat.toEventStream(runtime))
        const text = await new Response(bytes).text()
        expect(text.endsWith("data: [DONE]\n\n")).toBe(true)
        const decoded = eventsOf(text)
        expect(decoded.at(-1)).toBe("[DONE]")
        const expected = await runtime.runPromise(collect(Chat.stream(request)))
        expect(decoded.slice(0, -1).map((data) => JSON.parse(data) as unknown)).toEqual(expected)
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

    it.live("Chat.eventStream is the same SSE bytes as an Effect stream, and ends a failure with its error event", () =>
      withRuntime(streamChunks, async (runtime) => {
        const bytesOf = (stream: Stream.Stream<Uint8Array, unknown, StudioClient.StudioClient>) =>
          runtime.runPromise(collect(stream)).then((reads) => reads.map((read) => decoder.decode(read)).join(""))
        const effectText = await bytesOf(Chat.eventStream(Chat.stream(request)))
        const forwarded = await new Response(Chat.stream(request).pipe(Chat.toEventStream(runtime))).text()
        expect(effectText).toBe(forwarded)
        expect(eventsOf(effectText).at(-1)).toBe("[DONE]")
        const failed = await bytesOf(Chat.eventStream(
          Stream.take(Chat.stream(request), 3).pipe(
            Stream.concat(Stream.fail("the service went away"))
          )
        ))
        expect(failed).not.toContain("data: [DONE]")
        expect(failed.split("\n\n").filter((event) => event.startsWith("data: {")).length).toBe(3)
        expect(failed).toMatch(/event: error\ndata: \{"error":\{"type":"[^"]+","message":"[^"]*"\}\}\n\n$/)
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
  /** The elements of a whole iteration of `stream`, and the fibers it starts, as the runtime starts them. */
  const fibersOf = async <A, R>(stream: Stream.Stream<A>, runtime: ManagedRuntime.ManagedRuntime<R, never>) => {
    const count = { started: 0, ended: 0 }
    const counted = await runtime.runPromise(countFibers(currentRuntime<R>(), count))
    let elements = 0
    for await (const _ of Chat.toAsyncIterable(stream, counted)) elements++
    return { elements, fibers: count.started }
  }
  /** A stream of one read (one chunk) of each size. */
  const reads = (...sizes: ReadonlyArray<number>) =>
    sizes.map((size) => Stream.fromIterable(Array.from({ length: size }, (_, i) => i))).reduce((all, read) =>
      Stream.concat(all, read)
    )

  it.live("one pull per read of the stream, not per element", () =>
    Effect.promise(async () => {
      const runtime = ManagedRuntime.make(Reference.layerClient())
      try {
        // three reads of 1, 50 and 50 elements, and the same three reads ten times as large
        const small = await fibersOf(reads(1, 50, 50), runtime)
        const large = await fibersOf(reads(10, 500, 500), runtime)
        expect(small.elements).toBe(101)
        expect(large.elements).toBe(1010)
        // for three reads and the pull that finds the end
        expect(small.fibers).toBe(bridgeFibers(4))
        expect(large.fibers).toBe(small.fibers)
        // a stream of the client, from the runtime itself
        const texts: Array<string> = []
        for await (const text of Chat.toAsyncIterable(Chat.textDeltas(Chat.stream(request)), runtime)) texts.push(text)
        expect(texts.length).toBeGreaterThan(1)
      } finally {
        await runtime.dispose()
      }
    }))
})
