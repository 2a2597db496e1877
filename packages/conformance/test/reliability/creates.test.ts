/**
 * Creates are never duplicated by a retry. Against the reference service over a socket, with its fault
 * injection: under a 5xx after the service acted, a connection reset after the body was sent and an attempt
 * that times out while the service answers late, `Maestro.create`, `Assistants.run` and `Assistants.create`
 * create exactly one run (or assistant) per call; a 429, and a 503 with `Retry-After`, said before any work,
 * are retried to the one create. `retryCreates` opts into retrying them all, and then a create is repeated.
 */
import {
  describe,
  Effect,
  expect,
  FetchHttpClient,
  Fiber,
  fork,
  HttpClient,
  isDone,
  isFailure,
  isSuccess,
  it,
  Layer,
  type Outcome,
  outcome,
  Redacted,
  type RuntimeFiber,
  TestClock
} from "@studio-effect/line"
import { Assistants, Chat, Maestro, StudioClient } from "studio-effect"
import * as Reference from "studio-effect/reference"

const { Fault } = Reference

/** Lets I/O progress and moves the test clock until the fiber is done. */
const untilDone = <A, E>(fiber: RuntimeFiber<A, E>) =>
  Effect.gen(function*() {
    for (let i = 0; i < 1000 && !isDone(fiber); i++) {
      yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
      yield* TestClock.adjust("250 millis")
    }
    return yield* Fiber.join(fiber)
  })

/** The value of a call that succeeded; a failure fails the test. */
const successOf = <A, E>(result: Outcome<A, E>): A => {
  if (isSuccess(result)) return result.success
  throw new Error(`expected a success, got ${String(result.failure)}`)
}

/** The reference service over a socket; each POST takes the next fault of `pending`, and created runs are counted. */
const served = (options: StudioClient.RequestOptions = {}) =>
  Effect.gen(function*() {
    const pending: Array<Reference.Fault.Fault> = []
    const created = { runs: 0 }
    const server = yield* Reference.listen({
      runStepDuration: 0,
      faults: (request) => request.method === "POST" ? pending.shift() : undefined,
      failRun: () => {
        created.runs++
        return undefined
      }
    })
    const layer = StudioClient.layer({
      apiKey: Redacted.make("k"),
      baseUrl: server.url,
      timeout: "10 seconds",
      ...options
    }).pipe(Layer.orDie, Layer.provide(FetchHttpClient.layer))
    const call = <A, E>(effect: Effect.Effect<A, E, StudioClient.StudioClient>) =>
      Effect.flatMap(fork(outcome(Effect.provide(effect, layer))), untilDone)
    return { pending, created, call }
  })

/** Faults after which the service has acted: a create must not be sent again. */
const afterWork = [
  ["a 500 after the service acted", Fault.afterHandling({ status: 500 })],
  ["a 502 after the service acted", Fault.afterHandling({ status: 502 })],
  ["a 503 without Retry-After after the service acted", Fault.afterHandling({ status: 503 })],
  ["a reset after the body was sent", Fault.dropMidStream(1)],
  ["a timeout: the service answers after the attempt's limit", Fault.afterHandling({ delay: "30 seconds" })]
] as const

/** Faults the service answers before any work: retried to the one create. */
const beforeWork = [
  ["a 429 with Retry-After", Fault.status(429, { headers: { "retry-after": "1" } })],
  ["a 429 without Retry-After", Fault.status(429)],
  ["a 503 with Retry-After", Fault.status(503, { headers: { "retry-after": "1" } })]
] as const

const input = [{ role: "user" as const, content: "Hi" }]

describe("creates are never duplicated by a retry", () => {
  it.effect("Maestro.create and Assistants.run: one run per call under every fault", () =>
    Effect.scoped(Effect.gen(function*() {
      const { call, created, pending } = yield* served()
      const assistant = yield* call(Assistants.create({ name: "Helper" }))
      const assistantId = successOf(assistant).id
      const creates = [
        ["Maestro.create", Maestro.create({ input: "Hi" })],
        ["Assistants.run", Assistants.run(assistantId, { input })]
      ] as const
      let calls = 0
      for (const [operation, create] of creates) {
        for (const [fault, injected] of afterWork) {
          pending.push(injected)
          const result = yield* call(create)
          calls++
          expect(isFailure(result), `${operation} under ${fault}`).toBe(true)
          expect(created.runs, `${operation} under ${fault}`).toBe(calls)
        }
        for (const [fault, injected] of beforeWork) {
          pending.push(injected)
          const result = yield* call(create)
          calls++
          expect(isSuccess(result), `${operation} under ${fault}`).toBe(true)
          expect(created.runs, `${operation} under ${fault}`).toBe(calls)
        }
      }
      expect(pending).toEqual([])
    })))

  it.effect("Assistants.create: one assistant per call under every fault", () =>
    Effect.scoped(Effect.gen(function*() {
      const { call, pending } = yield* served()
      let calls = 0
      for (const [fault, injected] of [...afterWork, ...beforeWork]) {
        pending.push(injected)
        yield* call(Assistants.create({ name: `Helper ${calls}` }))
        calls++
        const listed = successOf(yield* call(Assistants.list()))
        expect(listed.results.length, `under ${fault}`).toBe(calls)
      }
    })))

  it.effect("retryCreates: true retries a create on every retryable error, so a 5xx after work repeats it", () =>
    Effect.scoped(Effect.gen(function*() {
      const { call, created, pending } = yield* served({ retryCreates: true })
      pending.push(Fault.afterHandling({ status: 500 }), Fault.afterHandling({ status: 502 }))
      const result = yield* call(Maestro.create({ input: "Hi" }))
      expect(isSuccess(result)).toBe(true)
      expect(created.runs).toBe(3)
    })))

  it.effect("chat completions keep their retries: a 500 is retried", () =>
    Effect.scoped(Effect.gen(function*() {
      const { call, pending } = yield* served()
      pending.push(Fault.afterHandling({ status: 500 }))
      const result = yield* call(Chat.create({ model: "fpmodel-mini", messages: input }))
      expect(isSuccess(result)).toBe(true)
      expect(pending).toEqual([])
    })))

  it.effect("a refused connection never reached the service: a create is retried", () =>
    Effect.gen(function*() {
      // the address of a service that has stopped listening
      const url = yield* Effect.scoped(Effect.map(Reference.listen({}), (server) => server.url))
      let attempts = 0
      const layer = StudioClient.layer({
        apiKey: Redacted.make("k"),
        baseUrl: url,
        maxRetries: 2,
        transformClient: HttpClient.mapRequest((request) => {
          attempts++
          return request
        })
      }).pipe(Layer.orDie, Layer.provide(FetchHttpClient.layer))
      const result = yield* Effect.flatMap(
        fork(outcome(Effect.provide(Maestro.create({ input: "Hi" }), layer))),
        untilDone
      )
      expect(isFailure(result) && result.failure._tag === "TransportError" && result.failure.unsent).toBe(true)
      expect(attempts).toBe(3)
    }))
})
