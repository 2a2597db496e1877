/**
 * Tenants under pressure, over a real socket: past `maxTenants` keys, the least recently used key's state is
 * forgotten, and no key ever sees what another made, whatever the order of keys and calls; a file deleted
 * while a run searches the library ends the run's search cleanly (never a 5xx, never another key's file).
 */
import { assert, describe, Effect, FetchHttpClient, it, Layer, Redacted } from "@studio-effect/line"
import * as fc from "fast-check"
import { Assistants, Library, Maestro, StudioClient } from "studio-effect"
import * as Reference from "studio-effect/reference"

const encoder = new TextEncoder()

const clientAs = (url: string, key: string) =>
  StudioClient.layer({ apiKey: Redacted.make(key), baseUrl: url, maxRetries: 0 }).pipe(
    Layer.provide(FetchHttpClient.layer),
    Layer.orDie
  )

const keys = ["key-0", "key-1", "key-2", "key-3"] as const

/** One call of one key: make something, or list what it holds. */
const step = fc.record({
  key: fc.constantFrom(...keys),
  call: fc.constantFrom("createAssistant", "listAssistants", "uploadFile", "listFiles")
})

describe("tenants past maxTenants", () => {
  it.live(
    "property: whatever the order of keys and calls, a key lists only what it made itself",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* Reference.listen({
          port: 0,
          apiKeys: [...keys],
          maxTenants: 2,
          fileProcessingDuration: 0
        })
        const clients = Object.fromEntries(keys.map((key) => [key, clientAs(server.url, key)]))
        /** Who made each id: an assistant's or a file's. */
        const madeBy = new Map<string, string>()
        const run = (key: string, call: string): Effect.Effect<void, unknown> => {
          const client = clients[key]!
          switch (call) {
            case "createAssistant":
              return Effect.map(
                Effect.provide(Assistants.create({ name: `of ${key}` }), client),
                (made) => void madeBy.set(made.id, key)
              )
            case "uploadFile":
              return Effect.map(
                Effect.provide(Library.upload(encoder.encode(`a note of ${key}`), { name: "note.txt" }), client),
                (made) => void madeBy.set(made.fileId, key)
              )
            case "listAssistants":
              return Effect.map(Effect.provide(Assistants.list(), client), (list) => {
                for (const assistant of list.results) assert.strictEqual(madeBy.get(assistant.id), key)
              })
            default:
              return Effect.map(Effect.provide(Library.list(), client), (files) => {
                for (const file of files) assert.strictEqual(madeBy.get(file.fileId), key)
              })
          }
        }
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              fc.array(step, { minLength: 1, maxLength: 12 }),
              (steps) => Effect.runPromise(Effect.forEach(steps, ({ call, key }) => run(key, call), { discard: true }))
            ),
            { numRuns: 40 }
          )
        )
        // four keys took turns with two kept: some key was forgotten and came back to an empty state
        assert.isAbove(madeBy.size, 0)
      })),
    120_000
  )
})

describe("a file deleted while a run searches the library", () => {
  it.live(
    "the run is created and completes, the deletes answer, and nothing is a 5xx",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* Reference.listen({ port: 0, fileProcessingDuration: 0, runStepDuration: 0 })
        const client = clientAs(server.url, "any")
        const words = Array.from({ length: 40_000 }, (_, i) => `w${i.toString(36)}`).join(" ")
        const files = yield* Effect.forEach(
          Array.from({ length: 8 }, (_, i) => i),
          (i) => Library.upload(encoder.encode(`travel ${i} ${words}`), { name: `f${i}.txt`, labels: ["race"] }),
          { concurrency: 4 }
        ).pipe(Effect.provide(client))
        const query = Array.from({ length: 64 }, (_, i) => `w${(i * 613).toString(36)}`).join(" ")
        const [run] = yield* Effect.all([
          Maestro.create({
            input: `travel ${query}`,
            tools: [{ type: "file_search", labels: ["race"] }],
            include: ["data_sources"]
          }),
          Effect.forEach(files, (file) => Library.delete(file.fileId), { concurrency: "unbounded", discard: true })
        ], { concurrency: "unbounded" }).pipe(Effect.provide(client))
        const done = yield* Maestro.retrieve(run.id).pipe(Effect.provide(client))
        assert.strictEqual(done.status, "completed")
        const uploaded = new Set(files.map((file) => file.fileId))
        for (const source of done.data_sources?.file_search ?? []) {
          assert.isTrue(uploaded.has(String(source.file_id)))
        }
        assert.deepStrictEqual(yield* Library.list().pipe(Effect.provide(client)), [])
      })),
    120_000
  )
})
