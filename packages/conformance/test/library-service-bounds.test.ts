/**
 * The bounds of the reference service's library that no client can pass: a search answers each file's text
 * at most once and at most `maxSearchAnswerBytes` bytes of JSON (never a 5xx, whatever the text holds); a
 * file's index is counted with its bytes against `maxLibraryBytes`, and every tenant's library against one
 * `maxTotalLibraryBytes`; a search gives way to other requests between steps of bounded work.
 */
import {
  assert,
  describe,
  Effect,
  FetchHttpClient,
  Fiber,
  fork,
  isDone,
  it,
  Layer,
  Redacted
} from "@studio-effect/line"
import { Library, Models, StudioClient } from "studio-effect"
import { searchStepLookups } from "studio-effect-core/reference/library/bm25"
import { defaultLibraryLimits } from "studio-effect-core/reference/library/library"
import { maxSegmentLength } from "studio-effect-core/reference/library/segments"
import * as Reference from "studio-effect/reference"

const encoder = new TextEncoder()
const KiB = 1024

/** `count` paragraphs, each a segment of its own that holds `alpha`, padded with `filler` to near a segment's size. */
const paragraphs = (count: number, filler: string): string =>
  Array.from(
    { length: count },
    (_, i) => `alpha ${i} ${filler.repeat(Math.floor((maxSegmentLength - 20) / filler.length))}`
  )
    .join("\n\n")

/** About `bytes` of short words, each one distinct. */
const distinctWords = (bytes: number): string => {
  const words: Array<string> = []
  let length = 0
  for (let i = 0; length < bytes; i++) {
    const word = `w${i.toString(36)}`
    words.push(word)
    length += word.length + 1
  }
  return words.join(" ")
}

/** A client of a served reference service with `key`. */
const clientAs = (url: string, key: string) =>
  StudioClient.layer({ apiKey: Redacted.make(key), baseUrl: url }).pipe(
    Layer.provide(FetchHttpClient.layer),
    Layer.orDie
  )

/** `POST /library/search` with `body` over the socket: the status, the answer's bytes and its JSON. */
const searchRaw = (url: string, body: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${url}/studio/v1/library/search`, {
      method: "POST",
      headers: { authorization: "Bearer any", "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    const bytes = new Uint8Array(await response.arrayBuffer())
    return { status: response.status, bytes: bytes.length, json: JSON.parse(new TextDecoder().decode(bytes)) }
  })

describe("the answer of a library search", () => {
  it.live("full_doc answers each file's text once, whole when it fits the default bound", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* Reference.listen({ port: 0, fileProcessingDuration: 0 })
      const text = paragraphs(300, "x")
      const { fileId } = yield* Library.upload(encoder.encode(text), { name: "a.txt" }).pipe(
        Effect.provide(clientAs(server.url, "any"))
      )
      const answer = yield* searchRaw(server.url, { query: "alpha", retrievalStrategy: "full_doc", maxSegments: 100 })
      assert.strictEqual(answer.status, 200)
      assert.deepStrictEqual(answer.json.results.map((result: { fileId: string }) => result.fileId), [fileId])
      assert.strictEqual(answer.json.results[0].text, text)
      assert.isUndefined(answer.json.truncated)
      assert.isAtMost(answer.bytes, defaultLibraryLimits.maxSearchAnswerBytes)
    })))

  it.live("an answer holds at most maxSearchAnswerBytes of JSON, control characters escaped included, marked truncated", () =>
    Effect.scoped(Effect.gen(function*() {
      const maxSearchAnswerBytes = 64 * KiB
      const server = yield* Reference.listen({ port: 0, fileProcessingDuration: 0, maxSearchAnswerBytes })
      const client = clientAs(server.url, "any")
      // 120 KB of text, and 90 KB of control characters that JSON escapes as 6 bytes each
      const plain = yield* Library.upload(encoder.encode(paragraphs(120, "x")), { name: "plain.txt" }).pipe(
        Effect.provide(client)
      )
      const controls = yield* Library.upload(encoder.encode(paragraphs(90, "\u0001")), { name: "controls.txt" }).pipe(
        Effect.provide(client)
      )
      for (const strategy of ["full_doc", "add_neighbors", "segments"] as const) {
        for (const fileIds of [[plain.fileId], [controls.fileId], undefined]) {
          const request = { query: "alpha", retrievalStrategy: strategy, maxSegments: 100, maxNeighbors: 10, fileIds }
          const answer = yield* searchRaw(server.url, request)
          assert.strictEqual(answer.status, 200)
          assert.isAtMost(answer.bytes, maxSearchAnswerBytes, `${strategy} over ${fileIds ?? "every file"}`)
          assert.isAbove(answer.json.results.length, 0)
          assert.strictEqual(answer.json.truncated, true)
          if (strategy === "full_doc") {
            const ids = answer.json.results.map((result: { fileId: string }) => result.fileId)
            assert.deepStrictEqual(ids, [...new Set(ids)])
          }
          // the SDK's own schema reads the answer
          const decoded = yield* Library.search(request).pipe(Effect.provide(client))
          assert.strictEqual(decoded.results.length, answer.json.results.length)
        }
      }
    })))
})

describe("the memory of the libraries", () => {
  it.effect("a file's index counts with its bytes against maxLibraryBytes: distinct words fill a library sooner", () =>
    Effect.gen(function*() {
      const size = 600 * KiB
      const repeated = yield* Library.upload(encoder.encode("alpha ".repeat(size / 6)), { name: "same.txt" })
      assert.isString(repeated.fileId)
      yield* Library.delete(repeated.fileId).pipe(Effect.ignore)
      const distinct = yield* Library.upload(encoder.encode(distinctWords(size)), { name: "distinct.txt" }).pipe(
        Effect.flip
      )
      if (distinct._tag !== "ApiError") return assert.fail(`expected a 413, got ${distinct._tag}`)
      assert.strictEqual(distinct.status, 413)
      assert.match(distinct.message, /index/)
    }).pipe(Effect.provide(Reference.layerClient({ maxLibraryBytes: 1024 * KiB, fileProcessingDuration: 0 }))))

  it.live("every key's library counts against one maxTotalLibraryBytes; a forgotten key's files free it", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* Reference.listen({
        port: 0,
        fileProcessingDuration: 0,
        apiKeys: ["key-a", "key-b", "key-c"],
        maxTenants: 2,
        maxLibraryBytes: 100 * KiB,
        maxTotalLibraryBytes: 150 * KiB
      })
      const file = encoder.encode("alpha ".repeat(60 * KiB / 6))
      const upload = (key: string) =>
        Library.upload(file, { name: "a.txt" }).pipe(Effect.provide(clientAs(server.url, key)), Effect.flip)
      const first = yield* Library.upload(file, { name: "a.txt" }).pipe(Effect.provide(clientAs(server.url, "key-a")))
      const refused = yield* upload("key-b")
      if (refused._tag !== "ApiError") return assert.fail(`expected a 413, got ${refused._tag}`)
      assert.strictEqual(refused.status, 413)
      assert.match(refused.message, /maxTotalLibraryBytes|every library/)
      // key-a deletes its file: key-b's upload fits
      yield* Library.delete(first.fileId).pipe(Effect.provide(clientAs(server.url, "key-a")))
      yield* Library.upload(file, { name: "b.txt" }).pipe(Effect.provide(clientAs(server.url, "key-b")))
      // key-c and key-a come: key-b, least recently used of two kept, is forgotten with its files
      yield* Library.list().pipe(Effect.provide(clientAs(server.url, "key-c")))
      yield* Library.list().pipe(Effect.provide(clientAs(server.url, "key-a")))
      yield* Library.upload(file, { name: "c.txt" }).pipe(Effect.provide(clientAs(server.url, "key-c")))
    })))
})

describe("a long library search", () => {
  it.effect("gives way to other requests between steps of at most searchStepLookups term lookups", () =>
    Effect.gen(function*() {
      const text = distinctWords(1024 * KiB)
      yield* Library.upload(encoder.encode(text), { name: "words.txt" })
      const words = text.split(" ")
      /**
       * How many other requests are answered, one after another, while a search for `terms` words runs (up to
       * `enough`: the search may give way to many between two of its steps).
       */
      const answeredDuring = (terms: number, enough: number) =>
        Effect.gen(function*() {
          const query = words.filter((_, i) => i % 997 === 0).slice(0, terms).join(" ")
          const search = yield* fork(Library.search({ query, maxSegments: 10 }))
          let answered = 0
          while (!isDone(search) && answered < enough) {
            yield* Models.list()
            answered++
          }
          yield* Fiber.join(search)
          return answered
        })
      // a search of one term takes one step: the requests answered meanwhile are those of the search's own path
      const one = yield* answeredDuring(1, Number.POSITIVE_INFINITY)
      // the file's ~1,000 segments × 64 terms, looked up twice, take at least this many steps more than one term
      const steps = Math.floor((2 * 63 * Math.floor(text.length / maxSegmentLength)) / searchStepLookups)
      assert.isAtLeast(steps, 8)
      const enough = one + Math.ceil(steps / 2)
      assert.strictEqual(yield* answeredDuring(64, enough), enough)
    }).pipe(Effect.provide(Reference.layerClient({ fileProcessingDuration: 0 }))))
})
