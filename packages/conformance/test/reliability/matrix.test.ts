/**
 * The fault matrix: every way a call can go wrong, each row a test against the reference service over a
 * real socket on 127.0.0.1 (the scripted server only where the reference cannot produce the fault), with
 * the expected outcome asserted. Time is the `TestClock`, driven while the sockets do real I/O; retry
 * spacing is read from the server side (the arrival time of each request on Effect's clock).
 *
 * Every error, log line (at every level) and span of the whole matrix is recorded, and the last test
 * checks that no canary (API key, tool credential) appears in any of them.
 */
import {
  callback,
  Cause,
  collect,
  describe,
  Duration,
  type DurationInput,
  Effect,
  Exit,
  expect,
  Fiber,
  fork,
  isDone,
  it,
  logAtEveryLevel,
  makeRecording,
  Stream,
  streamOutcomes,
  TestClock
} from "@studio-effect/line"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Chat, Maestro, StudioClient, type StudioError } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { advanceUntil, waitUntil } from "../support/clock.js"
import { testServer } from "../support/testServer.js"
import {
  canaries,
  canaryHttp,
  canaryKey,
  canaryMcp,
  chatRequest,
  clientLayer,
  failureOf,
  failuresOf,
  type ReferenceServer,
  referenceServer,
  runRequest,
  type SendLog,
  showError,
  type TransportName,
  transportNames,
  valueOf
} from "./harness.js"

const { Fault } = Reference

const { layer: observe, recording } = makeRecording()
/** Every error of the matrix, as every printer shows it. */
const seen: Array<string> = []

/** Failed attempts the client has logged so far (one logfmt line each). */
const attemptFailures = () =>
  recording.logs.filter((line) => line.startsWith("timestamp=") && line.includes("studio request attempt failed"))
    .length

const record = <A>(exit: Exit.Exit<A, StudioError.StudioError>): Exit.Exit<A, StudioError.StudioError> => {
  if (Exit.isFailure(exit)) {
    for (const error of failuresOf(exit.cause)) seen.push(showError(error))
    seen.push(Cause.pretty(exit.cause))
  }
  return exit
}

/** Runs `effect` in a fiber, advancing the clock by `step` until it ends; returns (and records) its exit. */
const drive = <A, R>(
  effect: Effect.Effect<A, StudioError.StudioError, R>,
  step: DurationInput = "100 millis",
  maxSteps = 2_000
) =>
  Effect.gen(function*() {
    const fiber = yield* fork(effect)
    yield* advanceUntil(() => isDone(fiber), step, maxSteps)
    return record(yield* Fiber.await(fiber))
  })

/** Lets the event loop run timers as well as I/O (a few milliseconds of real time, no clock sleep). */
const settle = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 5)))

/**
 * Like `drive`, but the clock moves only while the client is waiting to retry: every request it sent has
 * been answered and its failure logged. So a request reaches the server at the instant the client sent it,
 * and arrival times measure the retry delays (to within one step).
 */
const driveRetries = <A, R>(
  effect: Effect.Effect<A, StudioError.StudioError, R>,
  log: SendLog,
  step: DurationInput = "50 millis",
  maxSteps = 2_000
) =>
  Effect.gen(function*() {
    const base = attemptFailures()
    const sentBefore = log.sent.length
    const fiber = yield* fork(effect)
    const done = () => isDone(fiber)
    const quiet = () => log.sent.length > sentBefore && attemptFailures() - base >= log.sent.length - sentBefore
    for (let i = 0; i < maxSteps && !done(); i++) {
      yield* waitUntil(() => done() || quiet())
      // A few event-loop turns for the failed attempt to reach its retry schedule, which starts the wait.
      yield* settle
      if (!done()) yield* TestClock.adjust(step)
    }
    return record(yield* Fiber.await(fiber))
  })

/** Tool credentials never travel as headers of the SDK's requests; the key does, as a bearer token. */
const checkHeaders = (server: ReferenceServer) => {
  for (const headers of server.headers) {
    const shown = JSON.stringify(headers)
    expect(shown).not.toContain(canaryMcp)
    expect(shown).not.toContain(canaryHttp)
    expect(headers["authorization"]).toBe(`Bearer ${canaryKey}`)
  }
}

/**
 * One row: the reference service with `options`, and the client over `transport` (with `client` options);
 * `body` gets the server and the client's send log. The client layer lives for the whole row, so closing
 * sockets is the SDK's doing, not the transport's shutdown.
 */
const row = <A>(
  transport: TransportName,
  options: Reference.ReferenceOptions,
  client: Partial<StudioClient.StudioClientOptions>,
  body: (server: ReferenceServer, log: SendLog) => Effect.Effect<A, never, StudioClient.StudioClient>
) =>
  Effect.scoped(Effect.gen(function*() {
    const server = yield* referenceServer({ apiKeys: [canaryKey], ...options })
    const log: SendLog = { sent: [] }
    const result = yield* Effect.provide(body(server, log), clientLayer(server.url, transport, client, log))
    checkHeaders(server)
    return result
  })).pipe(Effect.provide(observe))

const gaps = (times: ReadonlyArray<number>) => times.slice(1).map((t, i) => t - times[i]!)

for (const transport of transportNames) {
  describe(`fault matrix over ${transport}`, () => {
    it.effect("429 with Retry-After (rate limit): retried after exactly that delay", () =>
      row(transport, { rateLimit: { limit: 1, window: "3 seconds" } }, {}, (server, log) =>
        Effect.gen(function*() {
          // Real I/O only: the clock stays at 0.
          record(yield* Effect.exit(Chat.create(chatRequest)))
          const exit = yield* driveRetries(Chat.create(chatRequest), log, "100 millis")
          expect(valueOf(exit).choices.length).toBe(1)
          // The first call fits the limit; the second is refused at 0 with Retry-After: 3, and sent again at 3 s.
          expect(server.arrivals.map((a) => a.at)).toEqual([0, 0, 3000])
          expect(log.sent).toEqual([0, 0, 3000])
        })))

    it.effect("429 past maxRetries: RateLimit carrying retryAfter, after 1 + maxRetries attempts", () =>
      row(transport, { rateLimit: { limit: 0, window: "2 seconds" } }, {}, (server, log) =>
        Effect.gen(function*() {
          const error = failureOf(yield* driveRetries(Chat.create(chatRequest), log, "100 millis"))
          expect(error._tag).toBe("RateLimit")
          if (error._tag !== "RateLimit") return
          expect(error.retryAfter && Duration.toMillis(error.retryAfter)).toBe(2000)
          expect(error.detail).toContain("rate limit")
          expect(server.arrivals.map((a) => a.at)).toEqual([0, 2000, 4000])
        })))

    it.effect("500, 502, 503, 504 then success: retried with jittered, doubling backoff", () =>
      row(
        transport,
        { faults: [Fault.status(500), Fault.status(502), Fault.status(503), Fault.status(504)] },
        { maxRetries: 4 },
        (server, log) =>
          Effect.gen(function*() {
            const step = 50
            const exit = yield* driveRetries(Chat.create(chatRequest), log, `${step} millis`)
            expect(valueOf(exit).id).toMatch(/^chat-/)
            const spacing = gaps(server.arrivals.map((a) => a.at))
            expect(spacing.length).toBe(4)
            spacing.forEach((gap, i) => {
              const base = 500 * 2 ** i
              // Jitter keeps each delay within 80–120 % of the doubling backoff.
              expect(gap).toBeGreaterThanOrEqual(base * 0.8)
              expect(gap).toBeLessThanOrEqual(base * 1.2 + step)
            })
          })
      ))

    it.effect("400: ValidationError with the service's detail, not retried", () =>
      row(
        transport,
        { faults: [Fault.status(400, { detail: "Bad request: the prompt is empty" })] },
        {},
        (server) =>
          Effect.gen(function*() {
            const error = failureOf(yield* drive(Chat.create(chatRequest)))
            expect(error._tag).toBe("ValidationError")
            if (error._tag !== "ValidationError") return
            expect(error.source).toBe("service")
            expect(error.status).toBe(400)
            expect(error.issues[0]!.message).toBe("Bad request: the prompt is empty")
            expect(server.arrivals.length).toBe(1)
          })
      ))

    it.effect("401: AuthError with the service's detail, not retried", () =>
      row(transport, { apiKeys: ["another-key"] }, {}, (server) =>
        Effect.gen(function*() {
          const error = failureOf(yield* drive(Chat.create(chatRequest)))
          expect(error._tag).toBe("AuthError")
          if (error._tag !== "AuthError") return
          expect(error.status).toBe(401)
          expect(error.detail).toBe("Forbidden: Bad or missing API token.")
          expect(server.arrivals.length).toBe(1)
        })))

    it.effect("403: AuthError with the service's detail, not retried", () =>
      row(
        transport,
        { faults: [Fault.status(403, { detail: "This key may not run Maestro" })] },
        {},
        (server) =>
          Effect.gen(function*() {
            const error = failureOf(yield* drive(Maestro.create(runRequest)))
            expect(error._tag).toBe("AuthError")
            if (error._tag !== "AuthError") return
            expect(error.status).toBe(403)
            expect(error.detail).toBe("This key may not run Maestro")
            expect(server.arrivals.length).toBe(1)
          })
      ))

    it.effect("404: NotFound with the service's detail, not retried", () =>
      row(transport, {}, {}, (server) =>
        Effect.gen(function*() {
          const error = failureOf(yield* drive(Maestro.retrieve("no-such-run")))
          expect(error._tag).toBe("NotFound")
          expect(error.message).toMatch(
            /^404 Run no-such-run not found \(GET http:\/\/127\.0\.0\.1:\d+\/studio\/v1\/maestro\/runs\/no-such-run\) \(request id [0-9a-f-]{36}\)\. Check the id/
          )
          expect(server.arrivals.length).toBe(1)
        })))

    it.effect("422: ValidationError with the service's issues and paths, not retried", () =>
      row(transport, {}, {}, (server) =>
        Effect.gen(function*() {
          const error = failureOf(yield* drive(Chat.create({ ...chatRequest, model: "fpmodel-unknown" })))
          expect(error._tag).toBe("ValidationError")
          if (error._tag !== "ValidationError") return
          expect(error.source).toBe("service")
          expect(error.status).toBe(422)
          expect(error.issues[0]!.path).toBe("model")
          expect(error.issues[0]!.message).toContain("fpmodel-mini")
          expect(server.arrivals.length).toBe(1)
        })))

    it.effect("connection refused: retried, then TransportError", () =>
      Effect.gen(function*() {
        const port = yield* callback<number>((resume) => {
          const server = http.createServer()
          server.listen(0, "127.0.0.1", () => {
            const { port } = server.address() as AddressInfo
            server.close(() => resume(Effect.succeed(port)))
          })
        })
        const log: SendLog = { sent: [] }
        const exit = yield* driveRetries(Chat.create(chatRequest), log).pipe(
          Effect.provide(clientLayer(`http://127.0.0.1:${port}`, transport, {}, log))
        )
        const error = failureOf(exit)
        expect(error._tag).toBe("TransportError")
        if (error._tag === "TransportError") {
          expect(error.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/studio\/v1\/chat\/completions$/)
        }
        expect(log.sent.length).toBe(3)
      }).pipe(Effect.provide(observe)))

    it.effect("connection reset before headers: retried, then success", () =>
      row(transport, { faults: [Fault.drop, Fault.drop] }, {}, (server, log) =>
        Effect.gen(function*() {
          expect(valueOf(yield* driveRetries(Chat.create(chatRequest), log)).id).toMatch(/^chat-/)
          expect(server.arrivals.length).toBe(3)
        })))

    it.effect("connection reset before headers past maxRetries: TransportError", () =>
      row(transport, { faults: [Fault.drop, Fault.drop] }, { maxRetries: 1 }, (server, log) =>
        Effect.gen(function*() {
          expect(failureOf(yield* driveRetries(Chat.create(chatRequest), log))._tag).toBe("TransportError")
          expect(server.arrivals.length).toBe(2)
        })))

    it.effect("connection reset in the middle of a JSON body: retried, then success", () =>
      row(transport, { faults: [Fault.dropMidStream(1)] }, {}, (server, log) =>
        Effect.gen(function*() {
          expect(valueOf(yield* driveRetries(Chat.create(chatRequest), log)).id).toMatch(/^chat-/)
          expect(server.arrivals.length).toBe(2)
        })))

    it.effect("connection reset mid-stream: the first events, then TransportError, no retry", () =>
      row(transport, { faults: [Fault.dropMidStream(2)] }, {}, (server) =>
        Effect.gen(function*() {
          const exit = yield* drive(collect(streamOutcomes(Chat.stream(chatRequest))))
          const items = [...valueOf(exit)]
          const last = items[items.length - 1]!
          expect(items.slice(0, -1).every((item) => item._tag === "Success")).toBe(true)
          expect(items.length).toBeGreaterThanOrEqual(2)
          expect(last._tag).toBe("Failure")
          if (last._tag === "Failure") {
            record(Exit.fail(last.failure))
            expect(last.failure._tag).toBe("TransportError")
          }
          expect(server.arrivals.length).toBe(1)
        })))

    it.effect("stream cut cleanly before [DONE]: TransportError, not a short success", () =>
      row(transport, { faults: [Fault.cutStream(3)] }, {}, (server) =>
        Effect.gen(function*() {
          const error = failureOf(yield* drive(Chat.accumulate(Chat.stream(chatRequest))))
          expect(error._tag).toBe("TransportError")
          expect(error.message).toContain("ended before [DONE]")
          expect(server.arrivals.length).toBe(1)
        })))

    it.effect("200 with malformed JSON (a body ended halfway): DecodeError, not retried", () =>
      row(transport, { faults: [Fault.cutStream(1)] }, {}, (server) =>
        Effect.gen(function*() {
          const error = failureOf(yield* drive(Chat.create(chatRequest)))
          expect(error._tag).toBe("DecodeError")
          if (error._tag !== "DecodeError") return
          expect(error.reason).toBe("the body is not JSON")
          expect(error.body).toMatch(/^\{"id":"chat-/)
          expect(server.arrivals.length).toBe(1)
        })))

    it.effect("headers slower than the attempt timeout: TimeoutError", () =>
      row(
        transport,
        { faults: [Fault.delay("10 seconds")] },
        { timeout: "2 seconds", maxRetries: 0 },
        (server) =>
          Effect.gen(function*() {
            const error = failureOf(yield* drive(Chat.create(chatRequest)))
            expect(error._tag).toBe("TimeoutError")
            if (error._tag === "TimeoutError") expect(error.phase).toBe("attempt")
            expect(server.arrivals.length).toBe(1)
          })
      ))

    it.effect("headers slower than the attempt timeout, then a fast answer: retried, success", () =>
      row(
        transport,
        { faults: [Fault.delay("10 seconds")] },
        { timeout: "2 seconds" },
        (server) =>
          Effect.gen(function*() {
            expect(valueOf(yield* drive(Chat.create(chatRequest), "50 millis")).id).toMatch(/^chat-/)
            expect(server.arrivals.length).toBe(2)
            expect(server.arrivals[1]!.at).toBeGreaterThanOrEqual(2000 + 400)
          })
      ))

    it.effect("a stream idle longer than its idle timeout: TimeoutError", () =>
      row(
        transport,
        { streamEventDelay: "5 seconds" },
        { streamIdleTimeout: "2 seconds" },
        (server) =>
          Effect.gen(function*() {
            let received = 0
            const consume = Stream.runForEach(Chat.stream(chatRequest), () => Effect.sync(() => received++))
            const error = failureOf(yield* drive(consume, "250 millis"))
            expect(error._tag).toBe("TimeoutError")
            if (error._tag === "TimeoutError") expect(error.phase).toBe("stream-idle")
            // the first event arrived at once; the stream then went idle
            expect(received).toBe(1)
            expect(server.arrivals.length).toBe(1)
          })
      ))

    it.effect("a run that fails: RunFailed with the run and the service's reason", () =>
      row(transport, { failRun: () => "the MCP server refused the call" }, {}, () =>
        Effect.gen(function*() {
          const error = failureOf(yield* drive(Maestro.createAndPoll(runRequest), "250 millis"))
          expect(error._tag).toBe("RunFailed")
          if (error._tag !== "RunFailed") return
          expect(error.reason).toBe("the MCP server refused the call")
          expect(error.run.status).toBe("failed")
        })))

    it.effect("a poll past its deadline: PollTimeout with the last snapshot", () =>
      row(transport, { runStepDuration: "1 hour" }, {}, (server, log) =>
        Effect.gen(function*() {
          const exit = yield* drive(Maestro.createAndPoll(runRequest, { deadline: "5 seconds" }), "250 millis")
          const error = failureOf(exit)
          expect(error._tag).toBe("PollTimeout")
          if (error._tag !== "PollTimeout") return
          expect(error.lastRun?.status).toBe("in_progress")
          const retrieves = server.arrivals.filter((a) => a.method === "GET")
          expect(retrieves.length).toBeGreaterThanOrEqual(2)
          // Nothing is sent past the deadline, 5 s after the run was created. The client's clock is read: the
          // clock moves on while a request or an answer is on its way. The first retrieve comes 0.8 to 1.2 s
          // (the default schedule's first delay) after the creation.
          expect(log.sent.length).toBe(retrieves.length + 1)
          const createdBy = log.sent[1]! - 800
          expect(log.sent.every((at) => at <= createdBy + 5000)).toBe(true)
        })))

    it.effect("interrupting a request: the server sees its socket closed", () =>
      row(transport, { faults: [Fault.delay("1 hour")] }, {}, (server) =>
        Effect.gen(function*() {
          const fiber = yield* fork(Chat.create(chatRequest))
          yield* waitUntil(() => server.arrivals.length === 1)
          expect(server.open()).toBe(1)
          yield* Fiber.interrupt(fiber)
          yield* waitUntil(() => server.open() === 0)
          expect(server.closed()).toBe(server.accepted())
        })))

    it.effect("interrupting a stream after its first event: the server sees its socket closed", () =>
      row(transport, { streamEventDelay: "10 seconds" }, {}, (server) =>
        Effect.gen(function*() {
          let events = 0
          const fiber = yield* Chat.stream(chatRequest).pipe(
            Stream.runForEach(() => Effect.sync(() => events++)),
            fork
          )
          // The service pauses 10 s before each event: advance to the first one only.
          yield* advanceUntil(() => events > 0, "1 second", 20)
          expect(events).toBe(1)
          expect(server.open()).toBe(1)
          yield* Fiber.interrupt(fiber)
          yield* waitUntil(() => server.open() === 0)
          expect(server.closed()).toBe(server.accepted())
        })))

    it.effect("interrupting a poll during a retrieve: the server sees its socket closed", () =>
      row(
        transport,
        {
          runStepDuration: "1 hour",
          faults: (request) => request.method === "GET" ? Fault.delay("1 hour") : undefined
        },
        {},
        (server) =>
          Effect.gen(function*() {
            const run = valueOf(yield* drive(Maestro.create(runRequest)))
            const fiber = yield* fork(Maestro.poll(run.id))
            yield* waitUntil(() => server.arrivals.length === 2)
            expect(server.open()).toBe(1)
            yield* Fiber.interrupt(fiber)
            yield* waitUntil(() => server.open() === 0)
            expect(server.closed()).toBe(server.accepted())
          })
      ))
  })
}

describe("fault matrix, scripted server (faults the reference service cannot produce)", () => {
  it.effect("200 with valid JSON of the wrong shape: DecodeError; tool credentials only in the body", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: { id: 7, choices: "none", status: [] } }))
      const layer = clientLayer(server.url, "fetch")
      const chat = failureOf(yield* drive(Chat.create(chatRequest).pipe(Effect.provide(layer))))
      expect(chat._tag).toBe("DecodeError")
      const run = failureOf(yield* drive(Maestro.create(runRequest).pipe(Effect.provide(layer))))
      expect(run._tag).toBe("DecodeError")
      expect(server.requests.length).toBe(2)
      const [, runSent] = server.requests
      expect(runSent!.body).toContain(canaryMcp)
      expect(runSent!.body).toContain(canaryHttp)
      for (const request of server.requests) {
        expect(JSON.stringify(request.headers)).not.toContain(canaryMcp)
        expect(JSON.stringify(request.headers)).not.toContain(canaryHttp)
      }
    })).pipe(Effect.provide(observe)))

  it.effect("a stream event of malformed JSON: DecodeError after the events before it", () =>
    Effect.scoped(Effect.gen(function*() {
      const good = JSON.stringify({
        id: "c",
        choices: [{ index: 0, delta: { role: "assistant" }, finish_reason: null }]
      })
      const server = yield* testServer(() => ({
        chunks: [`data: ${good}\n\n`, "data: {\"id\":\n\n", "data: [DONE]\n\n"]
      }))
      const exit = yield* drive(
        collect(streamOutcomes(Chat.stream(chatRequest))).pipe(
          Effect.provide(clientLayer(server.url, "undici"))
        )
      )
      const items = [...valueOf(exit)]
      expect(items.map((item) => item._tag)).toEqual(["Success", "Failure"])
      const last = items[1]!
      if (last._tag === "Failure") {
        record(Exit.fail(last.failure))
        expect(last.failure._tag).toBe("DecodeError")
      }
    })).pipe(Effect.provide(observe)))
})

describe("secrets across the whole matrix", () => {
  it.effect("no canary in any error, log line or span of the matrix", () =>
    Effect.gen(function*() {
      yield* logAtEveryLevel("recorder check")
      const everything = [...seen, recording.text()].join("\n")
      // The recording really captured errors, logs and spans, so the assertions below can fail.
      expect(seen.length).toBeGreaterThan(40)
      expect(recording.logs.some((line) => line.includes("recorder check"))).toBe(true)
      expect(attemptFailures()).toBeGreaterThan(10)
      expect(recording.spans.some((span) => span.name === "studio.maestro.poll")).toBe(true)
      expect(recording.spans.some((span) => span.name === "studio.chat.stream")).toBe(true)
      for (const canary of canaries) expect(everything).not.toContain(canary)
    }).pipe(Effect.provide(observe)))
})
