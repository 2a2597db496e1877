/**
 * A chat request's `mock_response`: typed and checked by the SDK (each delay a number of seconds, 0 or more),
 * sent as given, and honoured by the reference service on Effect's clock: it waits `response_delay_seconds`
 * (1 when left out) before it answers and `stream_response_delay_between_deltas_seconds` (0.1 when left out)
 * between a stream's events, each cut to its bound.
 */
import {
  collect,
  describe,
  Effect,
  expect,
  Fiber,
  fork,
  isDone,
  it,
  Layer,
  outcome,
  Redacted,
  TestClock,
  transportLayers
} from "@studio-effect/line"
import * as fc from "fast-check"
import { Chat, StudioClient } from "studio-effect"
import { maxMockResponseDelay } from "studio-effect-core/reference/mockResponse"
import * as Reference from "studio-effect/reference"

const request = (mock_response: Record<string, number>) => ({
  model: "fpmodel-mini",
  messages: [{ role: "user" as const, content: "Hi" }],
  mock_response
})

/** Lets the in-memory service and its client run to their next wait (no time passes on any clock). */
const settle = Effect.forEach(
  Array.from({ length: 20 }),
  () => Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve))),
  { discard: true }
)

describe("mock_response, in memory on Effect's clock", () => {
  const inService = <A, E>(effect: Effect.Effect<A, E, any>) =>
    Effect.provide(
      effect,
      Reference.layerClient({ client: { apiKey: Redacted.make("k"), maxRetries: 0 } })
    ) as Effect.Effect<
      A,
      E
    >

  it.effect("the answer comes after response_delay_seconds, 1 s when left out", () =>
    inService(Effect.gen(function*() {
      for (const [mock, delay] of [[{ response_delay_seconds: 2.5 }, 2500], [{}, 1000]] as const) {
        const fiber = yield* fork(Chat.create(request(mock)))
        yield* TestClock.adjust(delay - 1)
        expect(isDone(fiber)).toBe(false)
        yield* TestClock.adjust(1)
        const answer = yield* Fiber.join(fiber)
        expect(answer.choices[0]!.message.content).toContain("you asked")
      }
    })))

  it.effect("a delay past its bound is cut to it", () =>
    inService(Effect.gen(function*() {
      const fiber = yield* fork(Chat.create(request({ response_delay_seconds: 86_400 })))
      yield* TestClock.adjust(maxMockResponseDelay)
      expect((yield* Fiber.join(fiber)).choices.length).toBe(1)
    })))

  it.effect("a stream waits the delay between its events", () =>
    inService(Effect.gen(function*() {
      const mock = { response_delay_seconds: 0, stream_response_delay_between_deltas_seconds: 0.5 }
      const { mock_response: _, ...plain } = request(mock)
      // the role, one event per token, and the last chunk
      const events = (yield* Chat.create(plain)).usage.completion_tokens + 2
      const fiber = yield* fork(collect(Chat.stream(request(mock))))
      // one pause at a time: each starts only once the event before it has been read
      for (let pause = 1; pause < events; pause++) {
        yield* settle
        yield* TestClock.adjust(pause === events - 1 ? 499 : 500)
      }
      yield* settle
      expect(isDone(fiber)).toBe(false)
      yield* TestClock.adjust(1)
      yield* settle
      yield* TestClock.adjust("1 minute") // the stream's wait for the body's end after [DONE]
      expect((yield* Fiber.join(fiber)).length).toBe(events)
    })))

  it.effect("property: a delay that is not a number of seconds, 0 or more, is a ValidationError at its path", () =>
    inService(Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(
          fc.constantFrom("response_delay_seconds", "stream_response_delay_between_deltas_seconds"),
          fc.oneof(
            fc.double({ max: -Number.MIN_VALUE }),
            fc.constant(Number.POSITIVE_INFINITY),
            fc.constant(Number.NaN)
          ),
          async (field, delay) => {
            const result = await Effect.runPromise(
              outcome(Chat.create(request({ [field]: delay }))).pipe(
                Effect.provide(Reference.layerClient({ client: { apiKey: Redacted.make("k") } }))
              )
            )
            expect(result._tag === "Failure" && result.failure._tag).toBe("ValidationError")
            expect(result._tag === "Failure" && result.failure.message).toContain(`mock_response.${field}`)
          }
        ),
        { numRuns: 50 }
      )
    )))
})

for (const [name, transport] of transportLayers) {
  it.live(`mock_response is accepted over a socket (${name})`, () =>
    Effect.gen(function*() {
      const server = yield* Reference.listen({ apiKeys: ["k"] })
      const layer = StudioClient.layer({ apiKey: Redacted.make("k"), baseUrl: server.url }).pipe(
        Layer.orDie,
        Layer.provide(transport)
      )
      const mock = { response_delay_seconds: 0, stream_response_delay_between_deltas_seconds: 0 }
      const answer = yield* Chat.create(request(mock)).pipe(Effect.provide(layer))
      const streamed = yield* Chat.accumulate(Chat.stream(request(mock))).pipe(Effect.provide(layer))
      expect(streamed.choices[0]!.message.content).toBe(answer.choices[0]!.message.content)
    }).pipe(Effect.scoped))
}
