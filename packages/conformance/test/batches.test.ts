/**
 * The Batch API end to end: the SDK's `Batches` against the reference service, in memory and over a real
 * socket on each transport. A batch moves PENDING → PROCESSING → COMPLETED on `TestClock`, each line run
 * through the built-in model (a line the chat route would refuse goes to the error file); a cancel stops the
 * lines not yet run; pages follow the `after` cursor; an unknown id is `NotFound`, a bad file a
 * `ValidationError` before anything is sent (and from the service, when sent as it is).
 */
import {
  collect,
  describe,
  Effect,
  expect,
  it,
  Layer,
  NodeFileSystem,
  outcome,
  Redacted,
  Stream,
  TestClock,
  transportLayers
} from "@studio-effect/line"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Batches, StudioClient } from "studio-effect"
import { Studio } from "studio-effect/promise"
import * as Reference from "studio-effect/reference"
import { referenceClients } from "./support/referenceClients.js"
import { tempDirectory } from "./support/tempDirectory.js"

const encoder = new TextEncoder()
const line = (customId: string, body: Record<string, unknown>) =>
  JSON.stringify({ custom_id: customId, method: "POST", url: "/v1/chat/completions", body })
const ask = (content: string) => ({ model: "fpmodel-mini", messages: [{ role: "user", content }] })
const jsonl = (lines: ReadonlyArray<string>) => encoder.encode(lines.join("\n") + "\n")

const clients = referenceClients({ batchPendingDuration: 1000, batchLineDuration: 200 })

describe.each(clients)("batches, against the reference service %s", (_, client) => {
  const withClient = <A, E>(effect: Effect.Effect<A, E, StudioClient.StudioClient>) =>
    Effect.scoped(Effect.flatMap(client, (layer) => Effect.provide(effect, layer)))

  it.effect("PENDING, PROCESSING a line at a time, COMPLETED; each line answered, a refused one in the error file", () =>
    withClient(Effect.gen(function*() {
      const created = yield* Batches.create({
        file: jsonl([
          line("a", ask("Say hello")),
          line("b", { model: "no-such-model", messages: [{ role: "user", content: "x" }] }),
          line("c", ask("Name a colour"))
        ]),
        metadata: { team: "docs" }
      })
      expect(created).toMatchObject({
        status: "PENDING",
        endpoint: "/v1/chat/completions",
        request_counts: { total: 3, completed: 0, failed: 0 },
        metadata: { team: "docs" }
      })
      yield* TestClock.adjust("1200 millis")
      const processing = yield* Batches.retrieve(created.id)
      expect(processing.status).toBe("PROCESSING")
      expect(processing.request_counts).toEqual({ total: 3, completed: 1, failed: 0 })
      const early = yield* outcome(Batches.results(created.id))
      expect(early._tag === "Failure" && early.failure._tag).toBe("ValidationError")
      const sofar = yield* Batches.results(created.id, { force: true })
      expect(sofar.map((result) => result.custom_id)).toEqual(["a"])
      yield* TestClock.adjust("1 second")
      const done = yield* Batches.retrieve(created.id)
      expect(done.status).toBe("COMPLETED")
      expect(done.request_counts).toEqual({ total: 3, completed: 2, failed: 1 })
      expect(typeof done.completed_at).toBe("number")
      expect(done.output_file).toMatch(/file_type=output/)
      const output = yield* Batches.results(created.id, { fileType: "output" })
      expect(output.map((result) => result.custom_id)).toEqual(["a", "c"])
      const answer = output[0]!.response!.body as { choices: Array<{ message: { content: string } }> }
      expect(answer.choices[0]!.message.content.length).toBeGreaterThan(0)
      const errors = yield* Batches.results(created.id, { fileType: "error" })
      expect(errors.map((result) => [result.custom_id, result.response?.status_code])).toEqual([["b", 422]])
      expect(errors[0]!.error!.message).toMatch(/model/)
    })))

  it.effect("a cancel stops the lines not yet run; a finished batch cannot be cancelled", () =>
    withClient(Effect.gen(function*() {
      const created = yield* Batches.create({
        file: jsonl(Array.from({ length: 5 }, (_, index) => line(`r${index}`, ask(`question ${index}`))))
      })
      yield* TestClock.adjust("1400 millis")
      const cancelled = yield* Batches.cancel(created.id)
      expect(cancelled.status).toBe("CANCELLED")
      expect(cancelled.request_counts).toEqual({ total: 5, completed: 2, failed: 0 })
      expect(typeof cancelled.cancelled_at).toBe("number")
      yield* TestClock.adjust("10 seconds")
      const later = yield* Batches.retrieve(created.id)
      expect(later.status).toBe("CANCELLED")
      expect(later.request_counts.completed).toBe(2)
      const output = yield* Batches.results(created.id)
      expect(output.map((result) => result.custom_id)).toEqual(["r0", "r1"])
      const again = yield* outcome(Batches.cancel(created.id))
      expect(again._tag === "Failure" && again.failure._tag).toBe("ValidationError")
    })))

  it.effect("pages follow the after cursor, newest first; the stream reads every page", () =>
    withClient(Effect.gen(function*() {
      const ids: Array<string> = []
      for (let index = 0; index < 5; index++) {
        ids.unshift((yield* Batches.create({ file: jsonl([line("x", ask(`n${index}`))]) })).id)
      }
      const first = yield* Batches.list({ limit: 2 })
      expect(first.map((batch) => batch.id)).toEqual(ids.slice(0, 2))
      const second = yield* Batches.list({ after: first.at(-1)!.id, limit: 2 })
      expect(second.map((batch) => batch.id)).toEqual(ids.slice(2, 4))
      const all = yield* collect(Batches.stream({ pageSize: 2 }))
      expect(all.map((batch) => batch.id)).toEqual(ids)
      const rest = yield* collect(Stream.take(Batches.stream({ after: ids[0], pageSize: 3 }), 10))
      expect(rest.map((batch) => batch.id)).toEqual(ids.slice(1))
    })))

  it.effect("an unknown id is NotFound; a bad file or page is a ValidationError and nothing is sent", () =>
    withClient(Effect.gen(function*() {
      for (const call of [Batches.retrieve("nope"), Batches.cancel("nope"), Batches.results("nope")]) {
        const failed = yield* outcome(
          call as Effect.Effect<unknown, { readonly _tag: string }, StudioClient.StudioClient>
        )
        expect(failed._tag === "Failure" && failed.failure._tag).toBe("NotFound")
      }
      const broken = yield* outcome(Batches.create({ file: jsonl([line("a", ask("x")), "{not json"]) }))
      expect(broken._tag === "Failure" && broken.failure._tag).toBe("ValidationError")
      if (broken._tag === "Failure" && broken.failure._tag === "ValidationError") {
        expect(broken.failure.issues[0]!.message).toBe("line 2 is not JSON")
        expect(broken.failure.source).toBe("client")
      }
      const twice = yield* outcome(Batches.create({ file: jsonl([line("a", ask("x")), line("a", ask("y"))]) }))
      expect(twice._tag === "Failure" && twice.failure._tag).toBe("ValidationError")
      const page = yield* outcome(Batches.list({ limit: 101 }))
      expect(page._tag === "Failure" && page.failure._tag).toBe("ValidationError")
      expect(yield* Batches.list()).toEqual([])
    })))

  it.effect("a file read from a path; the answer's metadata with withResponse", ({ onTestFinished }) =>
    withClient(Effect.gen(function*() {
      const path = join(tempDirectory("batches-", onTestFinished), "requests.jsonl")
      writeFileSync(path, jsonl([line("p", ask("From a file"))]))
      const created = yield* Effect.provide(Batches.create({ file: path }), NodeFileSystem.layer)
      const answered = yield* Batches.retrieveWithResponse(created.id)
      expect(answered.status).toBe(200)
      expect(answered.value.id).toBe(created.id)
    })))
})

describe("the reference service's answers to bad batch requests, over a socket", () => {
  const send = (url: string, init: RequestInit = {}) =>
    Effect.promise(async () => {
      const response = await fetch(url, { ...init, headers: { authorization: "Bearer k", ...init.headers } })
      return { status: response.status, body: await response.json() as { detail: unknown } }
    })
  const form = (file: Uint8Array | undefined, fields: Record<string, string>) => {
    const body = new FormData()
    if (file !== undefined) body.append("file", new Blob([file as Uint8Array<ArrayBuffer>]), "in.jsonl")
    for (const [name, value] of Object.entries(fields)) body.append(name, value)
    return { method: "POST", body }
  }

  it.live("a bad file, field or query is a 4xx with a detail that says what is wrong, never a 500", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* Reference.listen({ apiKeys: ["k"], maxFileBytes: 1000 })
      const batches = `${server.url}/studio/v1/batches`
      const endpoint = "/v1/chat/completions"
      const badLine = yield* send(batches, form(jsonl([line("a", ask("x")), "[1]"]), { endpoint }))
      expect(badLine).toEqual({
        status: 422,
        body: { detail: [{ loc: ["body", "file", 2], msg: "line 2 is not a JSON object", type: "value_error" }] }
      })
      const noFile = yield* send(batches, form(undefined, { endpoint }))
      expect(noFile).toMatchObject({ status: 422, body: { detail: [{ loc: ["body", "file"], type: "missing" }] } })
      const metadata = yield* send(batches, form(jsonl([line("a", ask("x"))]), { endpoint, metadata: "[]" }))
      expect(metadata).toMatchObject({ status: 422, body: { detail: [{ loc: ["body", "metadata"] }] } })
      const large = yield* send(batches, form(jsonl([line("a", ask("x".repeat(2000)))]), { endpoint }))
      expect(large).toEqual({ status: 413, body: { detail: "The batch's file is larger than 1000 bytes." } })
      const page = yield* send(`${batches}?limit=0`)
      expect(page).toMatchObject({ status: 422, body: { detail: [{ loc: ["query", "limit"] }] } })
      const created = yield* send(batches, form(jsonl([line("a", ask("x"))]), { endpoint }))
      expect(created.status).toBe(200)
      const id = (created.body as unknown as { id: string }).id
      const fileType = yield* send(`${batches}/${id}/results?file_type=input`)
      expect(fileType).toMatchObject({ status: 422, body: { detail: [{ loc: ["query", "file_type"] }] } })
      const early = yield* send(`${batches}/${id}/results`)
      expect(early.status).toBe(400)
      expect(early.body.detail).toMatch(/is PENDING: its results are ready once it has finished/)
      const unknown = yield* send(`${batches}/nope`)
      expect(unknown).toEqual({ status: 404, body: { detail: "Batch nope not found" } })
    })))
})

describe("Batches from the Promise API", () => {
  const service = { batchPendingDuration: 0, batchLineDuration: 0 }
  const exercise = async (studio: Studio) => {
    try {
      const created = await studio.batches.create({
        file: new File([jsonl([line("a", ask("Hello")), line("b", ask("Bye"))])], "requests.jsonl"),
        metadata: { team: "docs" }
      })
      expect(created.metadata).toEqual({ team: "docs" })
      const done = await studio.batches.retrieve(created.id)
      expect(done).toMatchObject({ status: "COMPLETED", request_counts: { total: 2, completed: 2, failed: 0 } })
      const results = await studio.batches.results(created.id, { fileType: "output" })
      expect(results.map((result) => result.custom_id)).toEqual(["a", "b"])
      const second = await studio.batches.create({ file: jsonl([line("c", ask("Again"))]) })
      expect((await studio.batches.list({ limit: 1 })).map((batch) => batch.id)).toEqual([second.id])
      const all: Array<string> = []
      for await (const batch of studio.batches.listAll({ pageSize: 1 })) all.push(batch.id)
      expect(all).toEqual([second.id, created.id])
      const finished = await studio.batches.cancel(created.id).then(() => undefined, (error) => error)
      expect(finished?._tag).toBe("ValidationError")
      const missing = await studio.batches.retrieve("nope").then(() => undefined, (error) => error)
      expect(missing?._tag).toBe("NotFound")
    } finally {
      await studio.close()
    }
  }

  it.live("create, retrieve, results, list, every page, cancel and errors as Promises, in memory", () =>
    Effect.promise(() => exercise(Studio.reference(service))))

  it.live("the same over a socket", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* Reference.listen({ ...service, apiKeys: ["k"] })
      yield* Effect.promise(() =>
        exercise(new Studio({ apiKey: "k", baseUrl: server.url, allowInsecureHttp: true, maxRetries: 0 }))
      )
    })))
})

describe("the reference service's store of batches", () => {
  it.effect("keeps at most maxBatches batches, the oldest evicted first; each key sees only its own", () =>
    Effect.gen(function*() {
      const server = yield* Reference.listen({ apiKeys: ["key-a", "key-b"], maxBatches: 2 })
      const as = (key: string) =>
        StudioClient.layer({ apiKey: Redacted.make(key), baseUrl: server.url }).pipe(
          Layer.orDie,
          Layer.provide(transportLayers[0]![1])
        )
      const ids: Array<string> = []
      for (let index = 0; index < 3; index++) {
        const created = yield* Effect.provide(
          Batches.create({ file: jsonl([line("x", ask(`n${index}`))]) }),
          as("key-a")
        )
        ids.push(created.id)
      }
      const oldest = yield* outcome(Effect.provide(Batches.retrieve(ids[0]!), as("key-a")))
      expect(oldest._tag === "Failure" && oldest.failure._tag).toBe("NotFound")
      const kept = yield* Effect.provide(Batches.list(), as("key-a"))
      expect(kept.map((batch) => batch.id)).toEqual([ids[2], ids[1]])
      const other = yield* outcome(Effect.provide(Batches.retrieve(ids[2]!), as("key-b")))
      expect(other._tag === "Failure" && other.failure._tag).toBe("NotFound")
      expect(yield* Effect.provide(Batches.list(), as("key-b"))).toEqual([])
    }))
})
