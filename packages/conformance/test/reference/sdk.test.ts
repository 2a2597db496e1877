/**
 * The client SDK end to end against the reference service, over a socket and in memory: every operation,
 * and the errors and reliability behaviour that the service's answers drive.
 */
import {
  describe,
  Duration,
  Effect,
  expect,
  FetchHttpClient,
  Fiber,
  fold,
  fork,
  isDone,
  it,
  Layer,
  outcome,
  Redacted,
  type RuntimeFiber,
  type Scope,
  Stream,
  TestClock
} from "@studio-effect/line"
import { Assistants, Chat, Maestro, StudioClient } from "studio-effect"
import * as Reference from "studio-effect/reference"

type ClientOptions = Omit<StudioClient.StudioClientOptions, "baseUrl">

/** A client of a fresh reference service, in memory or over a socket on 127.0.0.1. */
type Transport = (
  service: Reference.ReferenceOptions,
  client?: ClientOptions
) => Effect.Effect<Layer.Layer<StudioClient.StudioClient>, unknown, Scope.Scope>

const inMemory: Transport = (service, client = {}) =>
  Effect.succeed(Reference.layerClient({ ...service, client: { apiKey: Redacted.make("sdk-key"), ...client } }))

const overSocket: Transport = (service, client = {}) =>
  Effect.map(
    Reference.listen(service),
    (server) =>
      StudioClient.layer({ apiKey: Redacted.make("sdk-key"), ...client, baseUrl: server.url }).pipe(
        Layer.orDie,
        Layer.provide(FetchHttpClient.layer)
      )
  )

/** Lets I/O progress and moves the test clock until the fiber is done. */
const untilDone = <A, E>(fiber: RuntimeFiber<A, E>) =>
  Effect.gen(function*() {
    for (let i = 0; i < 500 && !isDone(fiber); i++) {
      yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
      yield* TestClock.adjust("250 millis")
    }
    return yield* Fiber.join(fiber)
  })

const withClient = <A, E>(
  transport: Transport,
  effect: Effect.Effect<A, E, StudioClient.StudioClient>,
  service: Reference.ReferenceOptions = {},
  client?: ClientOptions
) =>
  Effect.scoped(Effect.gen(function*() {
    const layer = yield* transport(service, client)
    const fiber = yield* fork(Effect.provide(effect, layer))
    return yield* untilDone(fiber)
  }))

const messages = [{ role: "user" as const, content: "Tell me about the tides" }]

for (const [name, transport] of [["in memory", inMemory], ["over a socket", overSocket]] as const) {
  describe(`the client SDK against the reference service ${name}`, () => {
    it.effect("Chat.create, and Chat.stream that accumulates to the same completion", () =>
      withClient(
        transport,
        Effect.gen(function*() {
          const whole = yield* Chat.create({ model: "fpmodel-mini", messages, temperature: 0 })
          const streamed = yield* Chat.accumulate(Chat.stream({ model: "fpmodel-mini", messages, temperature: 0 }))
          expect(streamed.choices[0]?.message.content).toBe(whole.choices[0]?.message.content)
          expect(streamed.choices[0]?.finish_reason).toBe("stop")
          expect(streamed.usage).toEqual(whole.usage)
          const text = yield* Chat.stream({ model: "fpmodel-mini", messages, temperature: 0 }).pipe(
            Chat.textDeltas,
            fold("", (all: string, delta: string) => all + delta)
          )
          expect(text).toBe(whole.choices[0]?.message.content)
        })
      ))

    it.effect("tool calls decode with the client's schemas", () =>
      withClient(
        transport,
        Effect.gen(function*() {
          const reply = yield* Chat.create({
            model: "fpmodel-large",
            messages,
            tools: [{ type: "function", function: { name: "tide_table", description: "Tide times for a port" } }]
          })
          expect(reply.choices[0]?.finish_reason).toBe("tool_calls")
          expect(reply.choices[0]?.message.tool_calls?.[0]?.function.name).toBe("tide_table")
        })
      ))

    it.effect("Maestro.createAndPoll completes on the clock, with requirement scores", () =>
      withClient(
        transport,
        Effect.gen(function*() {
          const run = yield* Maestro.createAndPoll({
            input: "Write about the sea",
            budget: "medium",
            include: ["requirements_result", "data_sources"],
            requirements: [{ name: "short", description: "at most 12 words", is_mandatory: true }],
            tools: [{ type: "web_search", urls: ["example.com"] }]
          })
          expect(run.status).toBe("completed")
          expect(run.requirements_result?.score).toBe(1)
          expect(run.data_sources?.web_search?.map((source) => source.url)).toEqual(["https://www.example.com/"])
          expect(run.data_sources?.web_search?.[0]).toMatchObject({
            text: expect.stringContaining("example.com"),
            score: 1
          })
          const snapshots = yield* Maestro.watch(yield* Maestro.create({ input: "x", budget: "high" })).pipe(
            Stream.map((snapshot) => snapshot.status),
            Stream.runCollect
          )
          expect([...snapshots].at(0)).toBe("in_progress")
          expect([...snapshots].at(-1)).toBe("completed")
        })
      ))

    it.effect("a failed run fails polling with RunFailed and its message; an unknown run is NotFound", () =>
      withClient(
        transport,
        Effect.gen(function*() {
          const failed = yield* Effect.flip(Maestro.createAndPoll({ input: "x" }))
          expect(failed._tag).toBe("RunFailed")
          expect(failed.message).toContain("out of tokens")
          const missing = yield* Effect.flip(Maestro.retrieve("00000000-0000-4000-8000-000000000000"))
          expect(missing._tag).toBe("NotFound")
        }),
        { failRun: () => "out of tokens" }
      ))

    it.effect("Assistants: create, retrieve, list, update, run (both paths), runAndPoll, delete", () =>
      withClient(
        transport,
        Effect.gen(function*() {
          const created = yield* Assistants.create({ name: "Guide", budget: "low", response_language: "spanish" })
          expect((yield* Assistants.retrieve(created.id)).name).toBe("Guide")
          expect((yield* Assistants.list()).results.map((a) => a.id)).toEqual([created.id])
          const updated = yield* Assistants.update(created.id, { description: "Shows the way" })
          expect(updated.description).toBe("Shows the way")
          const started = yield* Assistants.run(created.id, { input: [{ role: "user", content: "Hola" }] })
          expect(started.status).toBe("in_progress")
          const sample = yield* Assistants.run(created.id, { input: [{ role: "user", content: "Hola" }] }, {
            path: "sample"
          })
          expect(sample.status).toBe("in_progress")
          const done = yield* Assistants.runAndPoll(created.id, {
            input: [{ role: "user", content: "Hola" }],
            include: ["requirements_result"],
            requirements: [{ name: "list", description: "a numbered list" }]
          })
          expect(done.status).toBe("completed")
          expect(done.requirements_result?.requirements.map((r) => r.name)).toEqual(["list"])
          const deleted = yield* Assistants.delete(created.id)
          expect(deleted.deleted).toBe(true)
          expect((yield* Effect.flip(Assistants.retrieve(created.id)))._tag).toBe("NotFound")
        })
      ))

    it.effect("a wrong key is an AuthError with the service's detail", () =>
      withClient(
        transport,
        Effect.gen(function*() {
          const denied = yield* Effect.flip(Chat.create({ model: "fpmodel-mini", messages }))
          expect(denied._tag).toBe("AuthError")
          expect(denied.message).toContain("Forbidden: Bad or missing API token")
        }),
        { apiKeys: ["sdk-key"] },
        { apiKey: Redacted.make("wrong") }
      ))

    it.effect("the service's 422 names the path", () =>
      withClient(
        transport,
        Effect.gen(function*() {
          const invalid = yield* Effect.flip(Chat.create({ model: "not-a-model", messages }))
          expect(invalid._tag).toBe("ValidationError")
          if (invalid._tag === "ValidationError") {
            expect(invalid.source).toBe("service")
            expect(invalid.issues.map((issue) => issue.path)).toEqual(["model"])
          }
        })
      ))

    it.effect("retries injected 503s and a dropped connection, then succeeds", () =>
      withClient(
        transport,
        Effect.gen(function*() {
          const reply = yield* Chat.create({ model: "fpmodel-mini", messages })
          expect(reply.choices).toHaveLength(1)
        }),
        { faults: [Reference.Fault.status(503), Reference.Fault.drop] },
        { maxRetries: 2 }
      ))

    it.effect("429 is a RateLimit carrying Retry-After", () =>
      withClient(
        transport,
        Effect.gen(function*() {
          yield* Chat.create({ model: "fpmodel-mini", messages })
          const limited = yield* Effect.flip(Chat.create({ model: "fpmodel-mini", messages }))
          expect(limited._tag).toBe("RateLimit")
          if (limited._tag === "RateLimit" && limited.retryAfter !== undefined) {
            expect(Duration.toSeconds(limited.retryAfter)).toBeGreaterThan(0)
          }
        }),
        { rateLimit: { limit: 1, window: "30 seconds" } },
        { maxRetries: 0 }
      ))

    it.effect("a stream cut before [DONE] or dropped mid-way is an error, never a success", () =>
      withClient(
        transport,
        Effect.gen(function*() {
          const cut = yield* outcome(Chat.accumulate(Chat.stream({ model: "fpmodel-mini", messages })))
          expect(cut._tag).toBe("Failure")
          const dropped = yield* outcome(Chat.accumulate(Chat.stream({ model: "fpmodel-mini", messages })))
          expect(dropped._tag).toBe("Failure")
        }),
        { faults: [Reference.Fault.cutStream(3), Reference.Fault.dropMidStream(3)] },
        { maxRetries: 0 }
      ))
  })
}
