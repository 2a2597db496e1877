/**
 * The library's files through the public surface, in memory and over a socket on each transport: a
 * search's `labels_filter` (checked before anything is sent, and applied by the reference service), an
 * upload's `dataSource` kept and shown, `custom_configs` and `metadata` sent in the form, a file's bytes
 * downloaded (as a bounded `Stream` and whole) and its parsed text, and uploads from a `Stream` sent as it
 * is read: bounded by `maxUploadSize` without reading on, and ended by the stream's own failure.
 */
import {
  assert,
  collect,
  describe,
  Effect,
  expect,
  isFailure,
  isSuccess,
  it,
  outcome,
  Stream,
  validateRequest
} from "@studio-effect/line"
import * as fc from "fast-check"
import { Readable } from "node:stream"
import { Library, LibrarySchema, StudioError } from "studio-effect"
import { Studio } from "studio-effect/promise"
import * as Reference from "studio-effect/reference"
import { referenceClients } from "./support/referenceClients.js"
import { clientOf, testServer } from "./support/testServer.js"

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const processedAtOnce = { fileProcessingDuration: 0 }

const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** The library's new operations, each checked against what was uploaded. */
const exercise = Effect.gen(function*() {
  const a = yield* Library.upload(encoder.encode("A refund is paid within ten days."), {
    name: "a.txt",
    labels: ["billing"],
    dataSource: "crm-export",
    metadata: "{\"owner\":\"finance\"}",
    customConfigs: "{\"chunking\":\"paragraph\"}"
  })
  yield* Library.upload(encoder.encode("A refund for a flight is paid by the airline."), {
    name: "b.txt",
    labels: ["travel"]
  })
  const markdown = "# Refunds\n\nA refund needs the invoice number.\n\nRefunds go back to the card that paid."
  const c = yield* Library.upload(encoder.encode(markdown), { name: "c.md", labels: ["billing", "policy"] })

  expect((yield* Library.retrieve(a.fileId)).dataSource).toBe("crm-export")

  const names = (found: LibrarySchema.LibrarySearchResponse) =>
    [...new Set(found.results.map((r) => r.fileName))].sort()
  expect(names(yield* Library.search({ query: "refund", labels_filter: { $eq: "billing" } }))).toEqual([
    "a.txt",
    "c.md"
  ])
  expect(
    names(
      yield* Library.search({
        query: "refund",
        labels_filter: { $and: [{ $eq: "billing" }, { labels: { $nin: ["policy"] } }] }
      })
    )
  ).toEqual(["a.txt"])
  expect(
    names(
      yield* Library.search({ query: "refund", labels_filter: { $or: [{ $in: ["travel"] }, { $all: ["policy"] }] } })
    )
  ).toEqual(["b.txt", "c.md"])

  // the bytes as uploaded, as a stream and whole; past maxDownloadSize, a DecodeError
  expect(decoder.decode(concat(yield* collect(Library.download(c.fileId))))).toBe(markdown)
  expect(decoder.decode(yield* Library.downloadBytes(a.fileId))).toBe("A refund is paid within ten days.")
  const tooLong = yield* outcome(Library.downloadBytes(c.fileId, { maxDownloadSize: 10 }))
  assert(isFailure(tooLong))
  expect(tooLong.failure).toBeInstanceOf(StudioError.DecodeError)
  expect(tooLong.failure.message).toMatch(/maxDownloadSize/)
  const unknown = yield* outcome(Library.downloadBytes("00000000-0000-4000-8000-000000000000"))
  assert(isFailure(unknown))
  expect(unknown.failure._tag).toBe("NotFound")

  const parsed = yield* Library.parsed(c.fileId)
  expect(parsed).toMatchObject({ fileId: c.fileId, name: "c.md", fileType: "md" })
  expect(parsed.text).toContain("Refunds go back to the card that paid.")
  expect(parsed.segments.map((segment) => segment.order)).toEqual(parsed.segments.map((_, i) => i))

  // a stream, sent as it is read: the file is the chunks in order
  const chunks = Array.from({ length: 50 }, (_, i) => encoder.encode(`Line ${i} of the log.\n`))
  const streamed = yield* Library.upload(Stream.fromIterable(chunks), { name: "log.txt", dataSource: "stream" })
  const file = yield* Library.retrieve(streamed.fileId)
  expect(file).toMatchObject({ name: "log.txt", sizeBytes: concat(chunks).length, dataSource: "stream" })
  expect(decoder.decode(yield* Library.downloadBytes(streamed.fileId))).toBe(decoder.decode(concat(chunks)))

  // an endless stream stops at maxUploadSize, read no further than the chunk that passed it
  let pulled = 0
  const endless = Stream.fromIterable([0]).pipe(
    Stream.forever,
    Stream.map(() => {
      pulled++
      return new Uint8Array(1024)
    })
  )
  const refused = yield* outcome(Library.upload(endless, { name: "endless.txt", maxUploadSize: 64 * 1024 }))
  assert(isFailure(refused))
  expect(refused.failure).toBeInstanceOf(StudioError.ValidationError)
  expect(refused.failure.message).toMatch(/maxUploadSize/)
  expect(pulled).toBeLessThanOrEqual(64 + 2)

  // a stream's own failure ends the upload with it
  const broken = yield* outcome(
    Library.upload(Stream.concat(Stream.fromIterable(chunks), Stream.fail("the disk went away" as const)), {
      name: "broken.txt"
    })
  )
  assert(isFailure(broken))
  expect(broken.failure).toBe("the disk went away")
  expect((yield* Library.list()).map((listed) => listed.name)).toEqual(["a.txt", "b.txt", "c.md", "log.txt"])
})

describe("the library's files", () => {
  for (const [where, client] of referenceClients(processedAtOnce)) {
    it.live(`${where}: labels_filter, dataSource, download, parsed and streamed uploads`, () =>
      Effect.flatMap(client, (layer) => Effect.provide(exercise, layer)))
  }

  it.live("custom_configs, metadata and data_source are sent in the form, as the Python client names them", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: { fileId: "f1" } }))
      for (const file of [encoder.encode("tea"), Stream.fromIterable([encoder.encode("te"), encoder.encode("a")])]) {
        yield* Library.upload(file, {
          name: "tea.txt",
          customConfigs: "{\"a\":1}",
          metadata: "{\"b\":2}",
          dataSource: "crm"
        }).pipe(Effect.provide(clientOf(server.url)))
      }
      for (const request of server.requests) {
        const form = yield* Effect.promise(() =>
          new Response(request.body, { headers: { "content-type": String(request.headers["content-type"]) } })
            .formData()
        )
        expect(yield* Effect.promise(() => (form.get("file") as File).text())).toBe("tea")
        expect([form.get("custom_configs"), form.get("metadata"), form.get("data_source")]).toEqual([
          "{\"a\":1}",
          "{\"b\":2}",
          "crm"
        ])
      }
      expect(server.requests).toHaveLength(2)
    }))

  it.live("the Promise API uploads a Node Readable and a web ReadableStream, downloads and reads parsed text", () =>
    Effect.gen(function*() {
      const server = yield* Reference.listen({ port: 0, apiKeys: ["k"], ...processedAtOnce })
      const studio = new Studio({ apiKey: "k", baseUrl: server.url })
      yield* Effect.promise(async () => {
        const fromNode = await studio.library.upload(
          Readable.from([Buffer.from("Green tea, "), Buffer.from("80 C.")]),
          {
            name: "tea.txt"
          }
        )
        const web = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode("Black tea, "))
            controller.enqueue(encoder.encode("100 C."))
            controller.close()
          }
        })
        const fromWeb = await studio.library.upload(web, { name: "black.txt" })
        expect(decoder.decode(await studio.library.downloadBytes(fromNode.fileId))).toBe("Green tea, 80 C.")
        const parts: Array<Uint8Array> = []
        for await (const bytes of studio.library.download(fromWeb.fileId)) parts.push(bytes)
        expect(decoder.decode(concat(parts))).toBe("Black tea, 100 C.")
        expect((await studio.library.parsed(fromWeb.fileId)).text).toBe("Black tea, 100 C.")
        await expect(
          studio.library.upload(Readable.from([new Uint8Array(2048)]), { name: "big.txt", maxUploadSize: 1024 })
        ).rejects.toBeInstanceOf(StudioError.ValidationError)
        await studio.close()
      })
    }))
})

describe("labels_filter is checked before anything is sent", () => {
  const label = fc.constantFrom("billing", "travel", "policy")
  const comparison = fc.record(
    { $eq: label, $ne: label, $in: fc.array(label), $nin: fc.array(label), $all: fc.array(label) },
    { requiredKeys: [] }
  ).filter((value) => Object.keys(value).length > 0)
  const filter: fc.Arbitrary<unknown> = fc.letrec<{ filter: unknown }>((tie) => ({
    filter: fc.oneof(
      { maxDepth: 3, depthIdentifier: "filter" },
      comparison,
      comparison.map((labels) => ({ labels })),
      fc.array(tie("filter"), { minLength: 1, maxLength: 3 }).map(($and) => ({ $and })),
      fc.array(tie("filter"), { minLength: 1, maxLength: 3 }).map(($or) => ({ $or }))
    )
  })).filter
  const mistakes: ReadonlyArray<readonly [unknown, RegExp]> = [
    [7, /is an object/],
    [{}, /needs one of/],
    [{ $like: "x" }, /\$like is not a comparison/],
    [{ $in: "billing" }, /takes a list of labels/],
    [{ $eq: ["billing"] }, /compares one label/],
    [{ $or: [] }, /non-empty list of filters/]
  ]

  it("every filter of the three shapes is a valid search; a broken rule is an issue at its place", () => {
    fc.assert(fc.property(filter, fc.constantFrom(...mistakes), (valid, [mistake, message]) => {
      expect(isSuccess(validateRequest(LibrarySchema.LibrarySearchRequest, { query: "q", labels_filter: valid })))
        .toBe(true)
      const result = validateRequest(LibrarySchema.LibrarySearchRequest, {
        query: "q",
        labels_filter: { $and: [valid, mistake] }
      })
      assert(isFailure(result))
      expect(result.failure.map((issue) => issue.message).join("; ")).toMatch(message)
      expect(result.failure[0]!.path).toMatch(/^labels_filter\.\$and\[1\]/)
    }))
  })

  it.live("a search with a broken labels_filter fails with ValidationError and sends nothing", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: { id: "s", results: [] } }))
      const result = yield* outcome(
        Library.search({ query: "q", labels_filter: { $in: "billing" } as never }).pipe(
          Effect.provide(clientOf(server.url))
        )
      )
      assert(isFailure(result))
      expect(result.failure).toBeInstanceOf(StudioError.ValidationError)
      expect(result.failure.message).toMatch(/labels_filter\.\$in/)
      expect(server.requests).toHaveLength(0)
    }))
})

describe("the bounds of a download and of a streamed upload", () => {
  it.live("maxDownloadSize must be a whole number of bytes, at least 1: otherwise a ValidationError, nothing sent", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ body: "x" }))
      const sizes = fc.oneof(
        fc.integer({ max: 0 }),
        fc.double({ noInteger: true }),
        fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53)
      )
      for (const size of fc.sample(sizes, 40)) {
        const result = yield* outcome(
          Library.downloadBytes("f1", { maxDownloadSize: size }).pipe(Effect.provide(clientOf(server.url)))
        )
        assert(isFailure(result))
        expect(result.failure).toBeInstanceOf(StudioError.ValidationError)
        expect(result.failure.message).toMatch(/maxDownloadSize/)
      }
      expect(server.requests).toHaveLength(0)
    }))

  it.live("a streamed upload is sent whole when within maxUploadSize, and refused as soon as it passes it", () =>
    Effect.gen(function*() {
      const cases = fc.sample(
        fc.record({
          chunks: fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 12 }),
          limit: fc.integer({ min: 1, max: 2000 })
        }),
        25
      )
      for (const { chunks, limit } of cases) {
        let pulled = 0
        // one chunk at a time, so that `pulled` counts what the upload read
        const stream = Stream.fromIterable(chunks).pipe(
          Stream.rechunk(1),
          Stream.map((size) => {
            pulled++
            return new Uint8Array(size).fill(97)
          })
        )
        const total = chunks.reduce((sum, size) => sum + size, 0)
        const result = yield* outcome(
          Library.upload(stream, { name: "a.txt", maxUploadSize: limit }).pipe(
            Effect.provide(Reference.layerClient({ maxFileBytes: 4096 }))
          )
        )
        if (total <= limit) {
          expect(isSuccess(result)).toBe(true)
          expect(pulled).toBe(chunks.length)
        } else {
          assert(isFailure(result))
          expect(result.failure).toBeInstanceOf(StudioError.ValidationError)
          // read no further than the chunk that passed the limit
          let sum = 0
          const passedAt = chunks.findIndex((size) => (sum += size) > limit)
          expect(pulled).toBe(passedAt + 1)
        }
      }
    }))
})
