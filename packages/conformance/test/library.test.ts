/**
 * The library end to end: the SDK's `Library` against the reference service, in memory (its files move
 * from PROCESSING to PROCESSED on `TestClock`) and over a real socket, and a run whose `file_search` tool
 * names a label answering from that label's files only.
 */
import {
  assert,
  describe,
  Effect,
  FetchHttpClient,
  Fiber,
  fork,
  it,
  Layer,
  NodeFileSystem,
  Redacted,
  repeatEffect,
  Schedule,
  Stream,
  TestClock
} from "@studio-effect/line"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Library, Maestro, type MaestroSchema, StudioClient } from "studio-effect"
import { Studio } from "studio-effect/promise"
import * as Reference from "studio-effect/reference"
import { tempDirectory } from "./support/tempDirectory.js"
import { clientOf } from "./support/testServer.js"

const encoder = new TextEncoder()

const files = [
  {
    name: "billing.txt",
    labels: ["billing"],
    text: "Invoices are sent on the first day of each month.\n\nA refund is paid within ten days of a request."
  },
  {
    name: "refunds.md",
    labels: ["billing", "policy"],
    text: "# Refunds\n\nA refund needs the invoice number. Refunds go back to the card that paid."
  },
  {
    name: "travel.txt",
    labels: ["travel"],
    text: "A refund for a cancelled flight is paid by the airline. Hotels refund within a week."
  }
] as const

/** Uploads the three files and returns their ids by name. */
const uploadAll = Effect.gen(function*() {
  const ids: Record<string, string> = {}
  for (const file of files) {
    const uploaded = yield* Library.upload(encoder.encode(file.text), { name: file.name, labels: [...file.labels] })
    ids[file.name] = uploaded.fileId
  }
  return ids
})

/** Searches, runs with a file_search tool naming the label `billing`, and checks what both found. */
const searchAndRun = (ids: Record<string, string>, settle: Effect.Effect<void>) =>
  Effect.gen(function*() {
    const found = yield* Library.search({ query: "refund invoice" })
    assert.isAbove(found.results.length, 0)
    // every file mentions refunds; only one segment has both terms, and it ranks first
    assert.strictEqual(found.results[0]!.fileName, "refunds.md")
    const scores = found.results.map((result) => result.score)
    assert.deepStrictEqual(scores, [...scores].sort((a, b) => b - a))

    const billingOnly = [ids["billing.txt"], ids["refunds.md"]]
    const labelled = yield* Library.search({ query: "refund", labels: ["travel"] })
    assert.deepStrictEqual([...new Set(labelled.results.map((result) => result.fileId))], [ids["travel.txt"]])

    const run = yield* Maestro.createAndPoll(
      {
        input: "How is a refund paid?",
        tools: [{ type: "file_search", labels: ["billing"] }],
        include: ["data_sources"]
      },
      { schedule: Schedule.spaced("50 millis") }
    ).pipe(fork, Effect.tap(() => settle), Effect.flatMap(Fiber.join))
    assert.strictEqual(run.status, "completed")
    const sources = run.data_sources?.file_search ?? []
    assert.isAbove(sources.length, 0)
    for (const source of sources) {
      assert.include(billingOnly, source.file_id)
      assert.notInclude(String(source.text), "airline")
    }
    assert.match(String(run.result), /source: (billing\.txt|refunds\.md)/)
    assert.notInclude(String(run.result), "airline")
  })

describe("Library in memory", () => {
  it.effect("files are PROCESSING, then PROCESSED on the service's clock; search and a labelled run use them", () =>
    Effect.gen(function*() {
      const ids = yield* uploadAll
      const first = yield* Library.retrieve(ids["billing.txt"]!)
      assert.strictEqual(first.status, "PROCESSING")
      assert.strictEqual((yield* Library.search({ query: "refund" })).results.length, 0)
      yield* TestClock.adjust("1 second")
      assert.strictEqual((yield* Library.retrieve(ids["billing.txt"]!)).status, "PROCESSED")
      yield* searchAndRun(ids, TestClock.adjust("10 seconds"))
    }).pipe(Effect.provide(Reference.layerClient())))

  it.effect("list filters by label, path, name and status, pages with limit/offset, and streams every page", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 5; i++) {
        yield* Library.upload(encoder.encode(`note ${i}`), {
          name: `note-${i}.txt`,
          path: i % 2 === 0 ? "notes/even" : "notes/odd",
          labels: i < 2 ? ["first"] : []
        })
      }
      assert.deepStrictEqual((yield* Library.list({ label: ["first"] })).map((file) => file.name), [
        "note-0.txt",
        "note-1.txt"
      ])
      assert.deepStrictEqual((yield* Library.list({ path: "notes/ev" })).map((file) => file.name), [
        "note-0.txt",
        "note-2.txt",
        "note-4.txt"
      ])
      assert.deepStrictEqual((yield* Library.list({ name: "note-3.txt" })).map((file) => file.path), ["notes/odd"])
      assert.strictEqual((yield* Library.list({ status: "PROCESSED" })).length, 0)
      assert.deepStrictEqual((yield* Library.list({ limit: 2, offset: 1 })).map((file) => file.name), [
        "note-1.txt",
        "note-2.txt"
      ])
      const all = yield* Stream.runCollect(Library.stream({ pageSize: 2 }))
      assert.deepStrictEqual(Array.from(all).map((file) => file.name), [0, 1, 2, 3, 4].map((i) => `note-${i}.txt`))
    }).pipe(Effect.provide(Reference.layerClient())))

  it.effect("update replaces labels and public URL; delete refuses a PROCESSING file, then deletes; NotFound after", () =>
    Effect.gen(function*() {
      const { fileId } = yield* Library.upload(new Blob(["hello"]), { name: "a.txt", labels: ["x"] })
      yield* Library.update(fileId, { labels: ["y", "z"], publicUrl: "https://example.com/a" })
      const updated = yield* Library.retrieve(fileId)
      assert.deepStrictEqual(updated.labels, ["y", "z"])
      assert.strictEqual(updated.publicUrl, "https://example.com/a")
      const processing = yield* Library.delete(fileId).pipe(Effect.flip)
      assert.strictEqual(processing._tag, "ValidationError")
      yield* TestClock.adjust("1 second")
      yield* Library.delete(fileId)
      assert.strictEqual((yield* Library.retrieve(fileId).pipe(Effect.flip))._tag, "NotFound")
      assert.strictEqual((yield* Library.update(fileId, { labels: [] }).pipe(Effect.flip))._tag, "NotFound")
    }).pipe(Effect.provide(Reference.layerClient())))

  it.effect("a file over maxUploadSize fails before anything is sent, naming the option; a stream is cut there", () =>
    Effect.gen(function*() {
      const error = yield* Library.upload(new Uint8Array(11), { name: "big.txt", maxUploadSize: 10 }).pipe(Effect.flip)
      assert.strictEqual(error._tag, "ValidationError")
      assert.include(error.message, "maxUploadSize")
      let pulled = 0
      const endless = repeatEffect(Effect.sync(() => {
        pulled++
        return new Uint8Array(4)
      }))
      const streamed = yield* Library.upload(endless, { name: "big.txt", maxUploadSize: 10 }).pipe(Effect.flip)
      assert.strictEqual(streamed._tag, "ValidationError")
      assert.isAtMost(pulled, 4)
      assert.strictEqual((yield* Library.list()).length, 0)
    }).pipe(Effect.provide(Reference.layerClient())))

  it.effect("the service answers 413 past its per-file and whole-library bounds, and 422 for an unknown type", () =>
    Effect.gen(function*() {
      const unknownType = yield* Library.upload(new Uint8Array(1), { name: "c.exe" }).pipe(Effect.flip)
      assert.strictEqual(unknownType._tag, "ValidationError")
      const tooBig = yield* Library.upload(new Uint8Array(101), { name: "a.txt" }).pipe(Effect.flip)
      assert.strictEqual(tooBig._tag, "ApiError")
      if (tooBig._tag === "ApiError") assert.strictEqual(tooBig.status, 413)
      // PDF files are stored unindexed: they hold their bytes only (an index counts too, see library-service-bounds)
      yield* Library.upload(new Uint8Array(100), { name: "a.pdf" })
      yield* Library.upload(new Uint8Array(100), { name: "b.pdf" })
      const full = yield* Library.upload(new Uint8Array(1), { name: "c.pdf" }).pipe(Effect.flip)
      if (full._tag === "ApiError") assert.strictEqual(full.status, 413)
      else assert.fail(`expected a 413, got ${full._tag}`)
    }).pipe(Effect.provide(Reference.layerClient({ maxFileBytes: 100, maxLibraryBytes: 200 }))))

  it.effect("batch status counts a batch's files by status; an unknown batch is NotFound", () =>
    Effect.gen(function*() {
      const batchId = "3f1c9a2e-0000-4000-8000-000000000001"
      yield* Library.upload(encoder.encode("a"), { name: "a.txt", batchId })
      yield* Library.upload(encoder.encode("{"), { name: "b.json", batchId })
      assert.deepStrictEqual(yield* Library.batchStatus(batchId), {
        batch_id: batchId,
        total_documents: 2,
        statuses: [{ status: "PROCESSING", count: 2 }]
      })
      yield* TestClock.adjust("1 second")
      const later = yield* Library.batchStatus(batchId)
      assert.deepStrictEqual(later.statuses, [{ status: "PROCESSED", count: 1 }, {
        status: "PROCESSING_FAILED",
        count: 1
      }])
      assert.strictEqual((yield* Library.batchStatus("no-such-batch").pipe(Effect.flip))._tag, "NotFound")
    }).pipe(Effect.provide(Reference.layerClient())))
})

describe("Library over HTTP", () => {
  it.live("uploads from a path, bytes, a Blob and a Stream; search and a labelled run use them", ({ onTestFinished }) =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* Reference.listen({ port: 0, fileProcessingDuration: 0, runStepDuration: 0 })
      const client = clientOf(server.url)
      const directory = tempDirectory("library-", onTestFinished)
      const path = join(directory, files[0].name)
      writeFileSync(path, files[0].text)
      yield* Effect.gen(function*() {
        const ids: Record<string, string> = {}
        ids["billing.txt"] = (yield* Library.upload(path, { labels: ["billing"], path: "docs/billing" })).fileId
        ids["refunds.md"] = (yield* Library.upload(new Blob([files[1].text]), {
          name: files[1].name,
          labels: [...files[1].labels]
        })).fileId
        ids["travel.txt"] = (yield* Library.upload(Stream.make(encoder.encode(files[2].text)), {
          name: files[2].name,
          labels: [...files[2].labels]
        })).fileId
        const stored = yield* Library.retrieve(ids["billing.txt"]!)
        assert.strictEqual(stored.name, "billing.txt")
        assert.strictEqual(stored.path, "docs/billing")
        assert.strictEqual(stored.sizeBytes, encoder.encode(files[0].text).length)
        assert.strictEqual(stored.status, "PROCESSED")
        yield* searchAndRun(ids, Effect.void)
      }).pipe(Effect.provide(Layer.merge(client, NodeFileSystem.layer)))
    })))
})

describe("Library per tenant", () => {
  it.live("with accepted keys, a key's files are its own: another key neither lists, reads nor searches them", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* Reference.listen({ port: 0, apiKeys: ["key-a", "key-b"], fileProcessingDuration: 0 })
      const as = (key: string) =>
        StudioClient.layer({ apiKey: Redacted.make(key), baseUrl: server.url }).pipe(
          Layer.provide(FetchHttpClient.layer),
          Layer.orDie
        )
      const { fileId } = yield* Library.upload(encoder.encode(files[0].text), { name: "billing.txt" }).pipe(
        Effect.provide(as("key-a"))
      )
      yield* Effect.gen(function*() {
        assert.deepStrictEqual(yield* Library.list(), [])
        assert.strictEqual((yield* Library.retrieve(fileId).pipe(Effect.flip))._tag, "NotFound")
        assert.deepStrictEqual((yield* Library.search({ query: "refund" })).results, [])
      }).pipe(Effect.provide(as("key-b")))
      const own = yield* Library.search({ query: "refund" }).pipe(Effect.provide(as("key-a")))
      assert.deepStrictEqual(own.results.map((result) => result.fileId), [fileId])
    })))
})

describe("Library from the Promise API", () => {
  it.live("upload, search, list every page and delete, as Promises", () =>
    Effect.promise(async () => {
      const studio = Studio.reference({ fileProcessingDuration: 0 })
      try {
        const { fileId } = await studio.library.upload(new File([files[0].text], "billing.txt"), {
          labels: ["billing"]
        })
        const found = await studio.library.search({ query: "refund", labels: ["billing"] })
        assert.deepStrictEqual([...new Set(found.results.map((result) => result.fileId))], [fileId])
        const all: Array<string> = []
        for await (const file of studio.library.listAll({ pageSize: 1 })) all.push(file.name)
        assert.deepStrictEqual(all, ["billing.txt"])
        await studio.library.delete(fileId)
        const error = await studio.library.retrieve(fileId).then(() => undefined, (error) => error)
        assert.strictEqual(error?._tag, "NotFound")
      } finally {
        await studio.close()
      }
    }))
})

describe("a run's file search in memory", () => {
  it.effect("takes file_ids (legacy tool_resources too), labels with labels_filter_mode, and path", () =>
    Effect.gen(function*() {
      const ids: Record<string, string> = {}
      for (const [i, file] of files.entries()) {
        const uploaded = yield* Library.upload(encoder.encode(file.text), {
          name: file.name,
          labels: [...file.labels],
          path: i === 2 ? "trips/air" : "money/refunds"
        })
        ids[file.name] = uploaded.fileId
      }
      yield* TestClock.adjust("1 second")
      const foundBy = (request: Omit<MaestroSchema.RunRequest, "input">) =>
        Effect.gen(function*() {
          const fiber = yield* Maestro.createAndPoll(
            { input: "How is a refund paid?", include: ["data_sources"], ...request },
            { schedule: Schedule.spaced("50 millis") }
          ).pipe(fork)
          yield* TestClock.adjust("10 seconds")
          const run = yield* Fiber.join(fiber)
          return [...new Set((run.data_sources?.file_search ?? []).map((source) => String(source.file_id)))].sort()
        })
      const travel = ids["travel.txt"]!
      assert.deepStrictEqual(yield* foundBy({ tool_resources: { file_search: { file_ids: [travel] } } }), [travel])
      assert.deepStrictEqual(yield* foundBy({ tools: [{ type: "file_search", file_ids: [travel] }] }), [travel])
      assert.deepStrictEqual(
        yield* foundBy({ tools: [{ type: "file_search", labels: ["billing", "travel"] }] }),
        []
      )
      assert.deepStrictEqual(
        yield* foundBy({ tools: [{ type: "file_search", labels: ["policy", "travel"], labels_filter_mode: "OR" }] }),
        [ids["refunds.md"]!, travel].sort()
      )
      assert.deepStrictEqual(yield* foundBy({ tools: [{ type: "file_search", path: "trips/" }] }), [travel])
    }).pipe(Effect.provide(Reference.layerClient())))
})
