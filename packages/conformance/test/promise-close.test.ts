/**
 * `close()` of the Promise API ends what the client runs: a call or a stream in flight settles at once with
 * `ClientClosed` (an `Error` with a `_tag` that says what happened) and its connection is released; a call or a
 * stream asked for after `close()` rejects with `ClientClosed` too, never with a bare string. Against a scripted
 * server that holds each answer open, so only `close()` can end the call.
 */
import { describe, Effect, expect, it } from "@studio-effect/line"
import { ClientClosed, Studio } from "studio-effect/promise"
import { type RecordedRequest, type ScriptedResponse, testServer, untilRequests } from "./support/testServer.js"

const request = { model: "fpmodel-mini", messages: [{ role: "user" as const, content: "Hi" }] }

const chunk = (content: string) =>
  `data: ${
    JSON.stringify({
      id: "chat-1",
      choices: [{ index: 0, delta: { content }, finish_reason: null }]
    })
  }\n\n`

/** Headers sent, then no more: a whole answer's body, or a stream after its first event. */
const held = (request: RecordedRequest): ScriptedResponse =>
  request.body.includes(`"stream":true`)
    ? { chunks: [chunk("first")], end: false }
    : { headers: { "content-type": "application/json" }, chunks: [], end: false }

/** Whether `promise` has settled after the event loop's pending work ran once: what it settled with. */
const settledNow = <A>(promise: Promise<A>) =>
  Promise.race([
    promise.then((value) => ({ settled: "resolved" as const, value }), (error) => ({ settled: "rejected", error })),
    new Promise<{ readonly settled: "pending" }>((resolve) => setImmediate(() => resolve({ settled: "pending" })))
  ])

/** Lets the event loop run until `condition` holds (a bounded number of turns, no timer). */
const turnsUntil = async (condition: () => boolean) => {
  for (let turn = 0; turn < 10_000 && !condition(); turn++) await new Promise((resolve) => setImmediate(resolve))
  expect(condition()).toBe(true)
}

const studioOf = (url: string) => new Studio({ apiKey: "sk-close", baseUrl: url, allowInsecureHttp: true })

describe("Studio.close()", () => {
  it.effect("a call in flight settles at once with ClientClosed, and its connection is released", () =>
    Effect.gen(function*() {
      const server = yield* testServer(held)
      const studio = studioOf(server.url)
      const pending = studio.chat.create(request)
      yield* untilRequests(server, 1)
      yield* Effect.promise(() => studio.close())
      const outcome = yield* Effect.promise(() => settledNow(pending))
      expect(outcome.settled).toBe("rejected")
      const error = (outcome as { readonly error: unknown }).error
      expect(error).toBeInstanceOf(ClientClosed)
      expect(error).toBeInstanceOf(Error)
      expect(error).toMatchObject({ _tag: "ClientClosed", inFlight: true })
      yield* Effect.promise(() => turnsUntil(() => server.closedSockets() === 1))
    }))

  it.effect("a stream being iterated ends at once with ClientClosed, and its connection is released", () =>
    Effect.gen(function*() {
      const server = yield* testServer(held)
      const studio = studioOf(server.url)
      const iterator = studio.chat.streamText(request)[Symbol.asyncIterator]()
      const first = yield* Effect.promise(() => iterator.next())
      expect(first).toEqual({ done: false, value: "first" })
      const next = iterator.next()
      yield* Effect.promise(() => studio.close())
      const outcome = yield* Effect.promise(() => settledNow(next))
      expect(outcome.settled).toBe("rejected")
      expect((outcome as { readonly error: unknown }).error).toBeInstanceOf(ClientClosed)
      yield* Effect.promise(() => turnsUntil(() => server.closedSockets() === 1))
      expect(server.requests.length).toBe(1)
    }))

  it.effect("a call, a stream or a listing asked for after close() rejects with ClientClosed, sending nothing", () =>
    Effect.gen(function*() {
      const server = yield* testServer(held)
      const studio = studioOf(server.url)
      yield* Effect.promise(() => studio.close())
      const rejections = yield* Effect.promise(() =>
        Promise.all([
          studio.chat.create(request).catch((error: unknown) => error),
          studio.maestro.retrieve("run-1").catch((error: unknown) => error),
          studio.chat.stream(request)[Symbol.asyncIterator]().next().catch((error: unknown) => error),
          studio.library.listAll()[Symbol.asyncIterator]().next().catch((error: unknown) => error)
        ])
      )
      for (const error of rejections) {
        expect(error).toBeInstanceOf(ClientClosed)
        expect(error).toMatchObject({ _tag: "ClientClosed", inFlight: false })
        expect(String(error)).toMatch(/^ClientClosed: The client is closed/)
        expect((error as Error).stack).toContain("ClientClosed")
      }
      expect(server.requests.length).toBe(0)
      // closing again is harmless
      yield* Effect.promise(() => studio.close())
    }))
})
