/**
 * In-process measurements of the streaming pipeline without a socket, for profiling:
 * `npx tsx bench/micro.ts [tokens]`. The same SSE bytes (16 KiB reads) go through the bare floor's parser
 * and through this SDK's decoding, with and without the Effect stream around it.
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { createParser } from "eventsource-parser"
import { performance } from "node:perf_hooks"
import { SseParser } from "studio-effect-core/sse/SseParser"
import { chatRequest, contentEvents, doneEvent, finalEvent, roleEvent } from "../../../bench/fixtures.js"
import * as Chat from "../src/Chat.js"
import { streamOf } from "../src/internal/stream/read.js"
import { decodeEventsWith } from "../src/internal/stream/sse.js"
import * as StudioClient from "../src/StudioClient.js"

const tokens = Number(process.argv[2] ?? "100000")
const body = Buffer.from(
  roleEvent + Array.from({ length: tokens }, (_, i) => contentEvents[i % contentEvents.length]).join("") +
    finalEvent(tokens) + doneEvent
)
const reads: Array<Uint8Array> = []
const readStream = () => Stream.fromChunks(...reads.map((read) => Chunk.of(read)))
for (let offset = 0; offset < body.length; offset += 16384) reads.push(body.subarray(offset, offset + 16384))

const time = (name: string, run: () => number | Promise<number>) => async () => {
  const samples: Array<number> = []
  for (let rep = 0; rep < 7; rep++) {
    const start = performance.now()
    const count = await run()
    const ms = performance.now() - start
    if (count !== tokens) throw new Error(`${name}: ${count} tokens`)
    samples.push(ms)
  }
  samples.sort((a, b) => a - b)
  console.log(`${name.padEnd(40)} ${(tokens / (samples[3]! / 1000) / 1000).toFixed(0)}k tok/s`)
}

const parseAll = (data: string) => JSON.parse(data)

await time("eventsource-parser + JSON.parse", () => {
  let count = 0
  const parser = createParser({
    onEvent: (event) => {
      if (event.data === "[DONE]") return
      const content = JSON.parse(event.data).choices[0].delta.content
      if (content) count++
    }
  })
  const decoder = new TextDecoder()
  for (const read of reads) parser.feed(decoder.decode(read, { stream: true }))
  return count
})()

await time("SseParser + JSON.parse", () => {
  let count = 0
  const parser = new SseParser()
  for (const read of reads) {
    for (const data of parser.push(read)) {
      if (data === "[DONE]") continue
      const content = JSON.parse(data).choices[0].delta.content
      if (content) count++
    }
  }
  return count
})()

await time("Stream: decodeEventsWith(JSON.parse)", () => {
  let count = 0
  return Effect.runPromise(
    Stream.unwrapScoped(Effect.map(decodeEventsWith("POST", "x", parseAll)(readStream()), streamOf)).pipe(
      Stream.runForEachChunk((chunk) =>
        Effect.sync(() => {
          for (const json of chunk) if (json.choices[0].delta.content) count++
        })
      ),
      Effect.map(() => count)
    )
  )
})()

const fakeClient = StudioClient.StudioClient.of({
  baseUrl: "http://127.0.0.1",
  json: () => Effect.die("not used"),
  jsonWithResponse: () => Effect.die("not used"),
  openEventsWithResponse: () => Effect.die("not used"),
  openEvents: (_request, parse) => Effect.map(decodeEventsWith("POST", "x", parse)(readStream()), streamOf),
  openBytes: () => Effect.die("not used"),
  redact: (error) => error,
  redactAttributes: (attributes) => attributes
})

await time("Chat.stream, textDeltas, runForEach", () => {
  let count = 0
  return Effect.runPromise(
    Chat.stream(chatRequest).pipe(
      Chat.textDeltas,
      Stream.runForEach(() => Effect.sync(() => count++)),
      Effect.map(() => count),
      Effect.provideService(StudioClient.StudioClient, fakeClient)
    )
  )
})()

await time("Chat.stream, runForEachChunk", () => {
  let count = 0
  return Effect.runPromise(
    Chat.stream(chatRequest).pipe(
      Stream.runForEachChunk((chunk) =>
        Effect.sync(() => {
          for (const c of chunk) if (c.choices[0]?.delta.content) count++
        })
      ),
      Effect.map(() => count),
      Effect.provideService(StudioClient.StudioClient, fakeClient)
    )
  )
})()
