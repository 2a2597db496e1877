/**
 * The bounds of the fault matrix: what a hostile server cannot make the SDK do. Each row runs over a real
 * socket on 127.0.0.1 (port 0) through `FetchHttpClient` and through `NodeHttpClient.layerUndici`, against
 * a server that sends endless events or bodies, holds a stream open after `[DONE]`, redirects elsewhere, or
 * asks for a retry in a form RFC 9110 does not allow. Time is the `TestClock`, driven while sockets do I/O.
 */
import {
  Clock,
  describe,
  type DurationInput,
  Effect,
  Exit,
  expect,
  Fiber,
  fork,
  isDone,
  it,
  repeatEffect,
  Stream
} from "@studio-effect/line"
import { Chat, type ChatSchema, StudioClient, type StudioError } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { advanceUntil, waitUntil } from "../support/clock.js"
import {
  canaries,
  chatRequest,
  clientLayer,
  failureOf,
  failuresOf,
  showError,
  type TransportName,
  transportNames,
  valueOf
} from "./harness.js"
import { type HostileHandler, type HostileServer, hostileServer } from "./hostile.js"

const seen: Array<string> = []

const drive = <A, R>(
  effect: Effect.Effect<A, StudioError.StudioError, R>,
  step: DurationInput = "100 millis"
) =>
  Effect.gen(function*() {
    const fiber = yield* fork(effect)
    yield* advanceUntil(() => isDone(fiber), step, 2_000)
    const exit = yield* Fiber.await(fiber)
    if (Exit.isFailure(exit)) {
      for (const error of failuresOf(exit.cause)) seen.push(showError(error))
    }
    return exit
  })

const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: "c-1", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`

const sse = (response: import("node:http").ServerResponse) => {
  response.writeHead(200, { "content-type": "text/event-stream" })
  response.flushHeaders()
}

const completion = JSON.stringify({
  id: "chat-1",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
})

/** One row: the hostile server answering with `handler`, the client over `transport` with `options`. */
const row = <A>(
  transport: TransportName,
  handler: HostileHandler,
  options: Partial<StudioClient.StudioClientOptions>,
  body: (
    server: HostileServer
  ) => Effect.Effect<A, never, StudioClient.StudioClient>
) =>
  Effect.scoped(Effect.gen(function*() {
    const server = yield* hostileServer(handler)
    return yield* Effect.provide(body(server), clientLayer(server.url, transport, options))
  }))

const KiB = 1024

for (const transport of transportNames) {
  describe(`bounds over ${transport}`, () => {
    it.effect("an endless event (a line that never ends): DecodeError past maxEventSize, socket released", () =>
      row(
        transport,
        (_, response, { endless }) => {
          sse(response)
          response.write("data: ")
          endless("x".repeat(16 * KiB))
        },
        { maxEventSize: 256 * KiB },
        (server) =>
          Effect.gen(function*() {
            const error = failureOf(yield* drive(Chat.accumulate(Chat.stream(chatRequest))))
            expect(error._tag).toBe("DecodeError")
            expect(error.message).toContain("an event is larger than 256 KiB (maxEventSize)")
            yield* waitUntil(() => server.open() === 0)
            expect(server.requests.length).toBe(1)
            // the server could write only what the client and the socket buffers took: far from endless
            expect(server.written()).toBeLessThan(64 * 1024 * KiB)
          })
      ))

    it.effect("an event of endless data lines: DecodeError past maxEventSize", () =>
      row(
        transport,
        (_, response, { endless }) => {
          sse(response)
          endless(`data: ${"y".repeat(1000)}\n`)
        },
        { maxEventSize: 128 * KiB },
        (server) =>
          Effect.gen(function*() {
            const error = failureOf(yield* drive(Stream.runDrain(Chat.stream(chatRequest))))
            expect(error._tag).toBe("DecodeError")
            yield* waitUntil(() => server.open() === 0)
          })
      ))

    it.effect("content that never ends: accumulate fails with DecodeError naming maxAccumulatedSize, socket released", () =>
      row(
        transport,
        (_, response, { endless }) => {
          sse(response)
          endless(chunk("w".repeat(4 * KiB)))
        },
        {},
        (server) =>
          Effect.gen(function*() {
            const error = failureOf(
              yield* drive(Chat.accumulate(Chat.stream(chatRequest), { maxAccumulatedSize: 256 * KiB }))
            )
            expect(error._tag).toBe("DecodeError")
            expect(error.message).toContain(
              "the accumulated completion is larger than 256 KiB (maxAccumulatedSize): pass a larger maxAccumulatedSize"
            )
            yield* waitUntil(() => server.open() === 0)
            expect(server.requests.length).toBe(1)
            expect(server.written()).toBeLessThan(64 * 1024 * KiB)
          })
      ))

    it.effect("[DONE], then the server holds the connection: accumulate returns at once, socket released", () =>
      row(
        transport,
        (_, response) => {
          sse(response)
          response.write(chunk("Hello") + chunk(" world") + "data: [DONE]\n\n")
        },
        {},
        (server) =>
          Effect.gen(function*() {
            const completion = valueOf(yield* drive(Chat.accumulate(Chat.stream(chatRequest))))
            expect(completion.choices[0]!.message.content).toBe("Hello world")
            // well under a second of the clock, far from the idle timeout (1 minute)
            expect(yield* Clock.currentTimeMillis).toBeLessThanOrEqual(500)
            // released within the window after [DONE]: 100 ms (on studio-effect/undici a timer of the platform,
            // so real time: waited for by event-loop turns)
            yield* waitUntil(() => server.open() === 0, 1_000_000)
          })
      ))

    it.effect("[DONE], then endless bytes: textDeltas and runForEach return, socket released", () =>
      row(
        transport,
        (_, response, { endless }) => {
          sse(response)
          response.write(chunk("Hi") + "data: [DONE]\n\n")
          endless(chunk("more"))
        },
        {},
        (server) =>
          Effect.gen(function*() {
            const texts: Array<string> = []
            valueOf(
              yield* drive(Stream.runForEach(Chat.textDeltas(Chat.stream(chatRequest)), (text) =>
                Effect.sync(() => {
                  texts.push(text)
                })))
            )
            expect(texts).toEqual(["Hi"])
            expect(yield* Clock.currentTimeMillis).toBeLessThanOrEqual(500)
            yield* waitUntil(() => server.open() === 0)
            expect(server.written()).toBeLessThan(64 * 1024 * KiB)
          })
      ))

    it.effect("[DONE] and the body's end: the connection is kept and reused by the next stream", () =>
      row(
        transport,
        (_, response) => {
          sse(response)
          response.end(chunk("Hi") + "data: [DONE]\n\n")
        },
        {},
        (server) =>
          Effect.gen(function*() {
            for (let i = 0; i < 3; i++) {
              const completion = valueOf(yield* drive(Chat.accumulate(Chat.stream(chatRequest))))
              expect(completion.choices[0]!.message.content).toBe("Hi")
            }
            expect(server.requests.length).toBe(3)
            expect(server.accepted()).toBe(1)
          })
      ))

    it.effect("a 200 larger than maxResponseSize (no length given): DecodeError, not retried, socket released", () =>
      row(
        transport,
        (_, response, { endless }) => {
          response.writeHead(200, { "content-type": "application/json" })
          response.write("{\"id\":\"")
          endless("z".repeat(16 * KiB))
        },
        { maxResponseSize: 512 * KiB },
        (server) =>
          Effect.gen(function*() {
            const error = failureOf(yield* drive(Chat.create(chatRequest)))
            expect(error._tag).toBe("DecodeError")
            expect(error.message).toContain("the response is larger than 512 KiB (maxResponseSize)")
            expect(server.requests.length).toBe(1)
            yield* waitUntil(() => server.open() === 0)
          })
      ))

    it.effect("a 200 whose Content-Length is over maxResponseSize: DecodeError before reading, not retried", () =>
      row(
        transport,
        (_, response) => {
          response.writeHead(200, { "content-type": "application/json", "content-length": String(300 * 1024 * KiB) })
          response.write("{")
        },
        { maxResponseSize: 64 * KiB },
        (server) =>
          Effect.gen(function*() {
            const error = failureOf(yield* drive(Chat.create(chatRequest)))
            expect(error._tag).toBe("DecodeError")
            expect(server.requests.length).toBe(1)
            yield* waitUntil(() => server.open() === 0)
          })
      ))

    it.effect("a 200 within maxResponseSize, with or without a length: decoded", () =>
      row(
        transport,
        (request, response) => {
          if (request.headers["x-mode"] === "chunked") {
            response.writeHead(200, { "content-type": "application/json" })
            response.write(completion.slice(0, 10))
            response.end(completion.slice(10))
          } else {
            response.writeHead(200, { "content-type": "application/json" })
            response.end(completion)
          }
        },
        { maxResponseSize: completion.length },
        () =>
          Effect.gen(function*() {
            expect(valueOf(yield* drive(Chat.create(chatRequest))).id).toBe("chat-1")
          })
      ))

    it.effect("a 503 with an endless body: only the first 8 KiB are read and kept, on each of 3 attempts", () =>
      row(
        transport,
        (_, response, { endless }) => {
          response.writeHead(503, { "content-type": "text/plain" })
          endless("overloaded ".repeat(1000))
        },
        {},
        (server) =>
          Effect.gen(function*() {
            const error = failureOf(yield* drive(Chat.create(chatRequest), "250 millis"))
            expect(error._tag).toBe("ApiError")
            if (error._tag !== "ApiError") return
            expect(error.status).toBe(503)
            expect(error.body.length).toBeLessThanOrEqual(8 * KiB)
            expect(error.body).toMatch(/^overloaded overloaded/)
            expect(server.requests.length).toBe(3)
            yield* waitUntil(() => server.open() === 0)
            expect(server.written()).toBeLessThan(3 * 64 * 1024 * KiB)
          })
      ))

    for (const status of [301, 302, 303, 307, 308]) {
      it.effect(`a ${status} to another origin: ApiError naming it, not followed, the key never sent there`, () =>
        Effect.scoped(Effect.gen(function*() {
          const elsewhere = yield* hostileServer((_, response) => {
            response.writeHead(200, { "content-type": "application/json" })
            response.end(completion)
          })
          return yield* row(
            transport,
            (_, response) => {
              response.writeHead(status, { location: `${elsewhere.url}/studio/v1/chat/completions` })
              response.end()
            },
            {},
            (server) =>
              Effect.gen(function*() {
                const error = failureOf(yield* drive(Chat.create(chatRequest)))
                expect(error._tag).toBe("ApiError")
                if (error._tag !== "ApiError") return
                expect(error.status).toBe(status)
                expect(error.message).toContain(`${status}`)
                expect(error.message).toContain(`${elsewhere.url}/studio/v1/chat/completions`)
                expect(error.message).toContain("not followed")
                expect(server.requests.length).toBe(1)
                expect(elsewhere.requests.length).toBe(0)
              })
          )
        })))
    }

    it.effect("Retry-After: 0x10 and 1e1 are not delays: retried after the backoff (0.5 s), not 16 or 10 s", () =>
      row(
        transport,
        (request, response) => {
          response.writeHead(429, {
            "content-type": "application/json",
            "retry-after": request.headers["x-retry-after"] as string
          })
          response.end(JSON.stringify({ detail: "slow down" }))
        },
        { maxRetries: 1 },
        (server) =>
          Effect.gen(function*() {
            for (const value of ["0x10", "1e1"]) {
              const start = yield* Clock.currentTimeMillis
              const call = Chat.create(chatRequest).pipe(
                StudioClient.withRequestOptions({ headers: { "x-retry-after": value } })
              )
              const error = failureOf(yield* drive(call, "50 millis"))
              expect(error._tag).toBe("RateLimit")
              expect((yield* Clock.currentTimeMillis) - start).toBeLessThanOrEqual(1000)
            }
            expect(server.requests.length).toBe(4)
          })
      ))
  })
}

describe("bounds in memory (the embedded reference service)", () => {
  it.effect("maxResponseSize and maxEventSize hold without a socket too; within them, answers as usual", () =>
    Effect.gen(function*() {
      const small = Reference.layerClient({ client: { maxResponseSize: 64, maxEventSize: 16 } })
      const whole = yield* Effect.flip(Chat.create(chatRequest).pipe(Effect.provide(small)))
      expect(whole._tag).toBe("DecodeError")
      expect(whole.message).toContain("larger than 64 bytes (maxResponseSize)")
      const streamed = yield* Effect.flip(Chat.accumulate(Chat.stream(chatRequest)).pipe(Effect.provide(small)))
      expect(streamed._tag).toBe("DecodeError")
      expect(streamed.message).toContain("an event is larger than 16 bytes (maxEventSize)")
      const roomy = Reference.layerClient({ client: { maxResponseSize: 64 * KiB, maxEventSize: 64 * KiB } })
      const completion = yield* Chat.accumulate(Chat.stream(chatRequest)).pipe(Effect.provide(roomy))
      expect(completion.choices[0]!.message.content).toBe(
        (yield* Chat.create(chatRequest).pipe(Effect.provide(roomy))).choices[0]!.message.content
      )
    }))
})

describe("the bound of Chat.accumulate", () => {
  const piece = (content: string): ChatSchema.ChatCompletionChunk => ({
    id: "c-1",
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
    usage: null
  })

  it.effect("by default 32 MiB (maxResponseSize's default): a longer content fails, within it passes", () =>
    Effect.gen(function*() {
      expect(Chat.defaultMaxAccumulatedSize).toBe(32 * 1024 * KiB)
      const mebibyte = "m".repeat(1024 * KiB)
      let pulled = 0
      const endless = repeatEffect(Effect.sync(() => {
        pulled++
        return piece(mebibyte)
      }))
      const error = yield* Effect.flip(Chat.accumulate(endless))
      expect(error._tag).toBe("DecodeError")
      expect(error.message).toContain("larger than 32 MiB (maxAccumulatedSize)")
      // stopped at the first chunk past the bound: 32 MiB of content, with the id and the choice, is past it
      expect(pulled).toBe(32)
      const within = yield* Chat.accumulate(Stream.make(piece("a"), piece("b")), { maxAccumulatedSize: 100 })
      expect(within.choices[0]!.message.content).toBe("ab")
    }))

  it.effect("tool call arguments and new choices count too; a bound that is not a size is a ValidationError", () =>
    Effect.gen(function*() {
      const call = (index: number, args: string): ChatSchema.ChatCompletionChunk => ({
        id: "c-1",
        choices: [{
          index,
          delta: { tool_calls: [{ index: 0, id: "t", type: "function", function: { name: "f", arguments: args } }] },
          finish_reason: null
        }],
        usage: null
      })
      const byArguments = yield* Effect.flip(
        Chat.accumulate(Stream.forever(Stream.make(call(0, "x".repeat(1000)))), { maxAccumulatedSize: 10 * KiB })
      )
      expect(byArguments.message).toContain("(maxAccumulatedSize)")
      const byChoices = yield* Effect.flip(
        Chat.accumulate(Stream.iterate(0, (n) => n + 1).pipe(Stream.map((n) => call(n, ""))), {
          maxAccumulatedSize: 10 * KiB
        })
      )
      expect(byChoices.message).toContain("(maxAccumulatedSize)")
      const invalid = yield* Effect.flip(Chat.accumulate(Stream.make(piece("a")), { maxAccumulatedSize: 0 }))
      expect(invalid._tag).toBe("ValidationError")
      expect(invalid.message).toContain("maxAccumulatedSize")
    }))
})

describe("secrets across the bounds", () => {
  it("no canary in any error of the bounds rows", () => {
    expect(seen.length).toBeGreaterThan(20)
    const everything = seen.join("\n")
    for (const canary of canaries) expect(everything).not.toContain(canary)
  })
})
