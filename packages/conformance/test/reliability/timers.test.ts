/**
 * Every duration is clamped to what the platform's timers can hold (infinity means no timer): a timeout or
 * an idle timeout of `Duration.infinity` or "30 days" (past 2^31 - 1 ms) waits, on the live clock, over a
 * real socket on 127.0.0.1 through every transport. The client's timeouts sleep with `Effect.sleep` in
 * their watchdogs, whose sleeps are timers of at most 2^31 - 1 ms; Node replaces a longer delay by 1 ms
 * (with a `TimeoutOverflowWarning`), so every delay given to `setTimeout` during the calls is recorded. And
 * no timer of the client's outlives its calls: a program whose runtime is never disposed can still exit.
 * On the live clock the attempt timeout fires on every transport (over `studio-effect/undici` it is a timer
 * of the platform, with no fiber), whether the answer's head or its body is late, and the socket is released.
 */
import {
  afterEach,
  beforeEach,
  describe,
  Duration,
  type DurationInput,
  Effect,
  expect,
  it,
  ManagedRuntime,
  vi
} from "@studio-effect/line"
import { Chat, type StudioClient } from "studio-effect"
import { maxTimerMillis } from "studio-effect-core/platform/timerDuration"
import { waitUntil } from "../support/clock.js"
import { chatRequest, clientLayer, failureOf, transportNames } from "./harness.js"
import { type HostileHandler, hostileServer } from "./hostile.js"

const completion = JSON.stringify({
  id: "chat-1",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
})

const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: "c-1", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`

/**
 * A completion, or a stream of two events whose rest comes once the client has had time to arm (and,
 * before, overflow) its idle watch.
 */
const answer: HostileHandler = (request, response) => {
  if (request.headers.accept === "text/event-stream") {
    response.writeHead(200, { "content-type": "text/event-stream" })
    response.write(chunk("Hello"))
    setImmediate(() => response.end(chunk(" world") + "data: [DONE]\n\n"))
    return
  }
  response.writeHead(200, { "content-type": "application/json" })
  response.end(completion)
}

let delays: Array<number> = []
/** The timers armed for a minute or more (the client's own: its timeouts' watchdogs), and their handles. */
let longTimers: Array<{ readonly ms: number; readonly handle: { readonly _destroyed?: boolean } }> = []
let overflows = 0
const onWarning = (warning: Error) => {
  if (warning.name === "TimeoutOverflowWarning") overflows++
}

beforeEach(() => {
  delays = []
  longTimers = []
  overflows = 0
  const setTimeout = globalThis.setTimeout
  vi.spyOn(globalThis, "setTimeout").mockImplementation(
    ((f: () => void, ms?: number, ...args: Array<unknown>) => {
      delays.push(ms ?? 0)
      const handle = setTimeout(f, ms, ...args)
      if ((ms ?? 0) >= 60_000) {
        longTimers.push({ ms: ms ?? 0, handle: handle as unknown as { readonly _destroyed?: boolean } })
      }
      return handle
    }) as typeof globalThis.setTimeout
  )
  process.on("warning", onWarning)
})

afterEach(() => {
  vi.restoreAllMocks()
  process.off("warning", onWarning)
})

const durations: ReadonlyArray<readonly [string, DurationInput]> = [
  ["Duration.infinity", Duration.infinity],
  ["30 days", "30 days"],
  ["2^31 ms", Duration.millis(2 ** 31)]
]

describe("long timeouts", () => {
  for (const transport of transportNames) {
    for (const [name, duration] of durations) {
      it.live(`timeout and streamIdleTimeout of ${name}: calls and streams wait, over ${transport}`, () =>
        Effect.scoped(Effect.gen(function*() {
          const server = yield* hostileServer(answer)
          const layer = clientLayer(server.url, transport, { timeout: duration, streamIdleTimeout: duration })
          const created = yield* Effect.provide(Chat.create(chatRequest), layer)
          expect(created.id).toBe("chat-1")
          const streamed = yield* Effect.provide(Chat.accumulate(Chat.stream(chatRequest)), layer)
          expect(streamed.choices[0]!.message.content).toBe("Hello world")
          yield* Effect.promise(() => new Promise<void>((resolve) => process.nextTick(resolve)))
          expect(delays.filter((delay) => !(delay <= maxTimerMillis))).toEqual([])
          expect(overflows).toBe(0)
        })))
    }
  }
})

describe("no timer outlives the calls", () => {
  for (const transport of transportNames) {
    it.live(`a runtime left open holds no timer of the client's after its calls, over ${transport}`, () =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* hostileServer(answer)
        // as a program that never disposes its runtime: once the calls are over, it must be free to exit
        const runtime = ManagedRuntime.make(
          clientLayer(server.url, transport, { timeout: "10 minutes", streamIdleTimeout: "9 minutes" })
        )
        yield* Effect.addFinalizer(() => Effect.promise(() => runtime.dispose()))
        const run = <A, E>(effect: Effect.Effect<A, E, StudioClient.StudioClient>) =>
          Effect.promise(() => runtime.runPromise(effect))
        yield* run(Chat.create(chatRequest))
        yield* run(Effect.all(Array.from({ length: 4 }, () => Chat.create(chatRequest)), { concurrency: 4 }))
        const streamed = yield* run(Chat.accumulate(Chat.stream(chatRequest)))
        expect(streamed.choices[0]!.message.content).toBe("Hello world")
        yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
        expect(longTimers.length).toBeGreaterThan(0)
        expect(longTimers.filter((timer) => timer.handle._destroyed !== true).map((timer) => timer.ms)).toEqual([])
      })))
  }
})

describe("attempt timeouts on the live clock", () => {
  /** The head never comes; or the head and half the body come, and the rest never does. */
  const stalls: ReadonlyArray<readonly [string, HostileHandler]> = [
    ["the answer's head", () => {}],
    ["the answer's body", (_, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": String(completion.length) })
      response.write(completion.slice(0, 20))
    }]
  ]
  for (const transport of transportNames) {
    for (const [late, stall] of stalls) {
      it.live(`${late} later than the timeout: TimeoutError of the attempt, socket released, over ${transport}`, () =>
        Effect.scoped(Effect.gen(function*() {
          // a call answered in full first, to another server: the transport is loaded and warm, so that the
          // timed attempt's request reaches the server well within its timeout however busy the machine is
          const warm = yield* hostileServer(answer)
          yield* Effect.provide(Chat.create(chatRequest), clientLayer(warm.url, transport))
          const server = yield* hostileServer(stall)
          const layer = clientLayer(server.url, transport, { timeout: "100 millis", maxRetries: 0 })
          const exit = yield* Effect.exit(Effect.provide(Chat.create(chatRequest), layer))
          const failure = failureOf(exit)
          expect(failure._tag).toBe("TimeoutError")
          expect(failure).toMatchObject({ phase: "attempt", method: "POST" })
          expect(server.requests).toHaveLength(1)
          yield* waitUntil(() => server.open() === 0)
        })))
    }
  }
})
