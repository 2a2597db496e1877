/**
 * Every duration is clamped to what the platform's timers can hold (infinity means no timer): a timeout or
 * an idle timeout of `Duration.infinity` or "30 days" (past 2^31 - 1 ms) waits, on the live clock, over a
 * real socket on 127.0.0.1 through every transport. Node replaces a longer delay by 1 ms (with a
 * `TimeoutOverflowWarning`): so every delay given to `setTimeout` during the calls is recorded.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { maxTimerMillis } from "studio-effect-core/time/timerDuration"
import { Chat } from "../../src/index.js"
import { chatRequest, clientLayer, transportNames } from "./harness.js"
import { hostileServer } from "./hostile.js"

const completion = JSON.stringify({
  id: "chat-1",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
})

const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: "c-1", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`

let delays: Array<number> = []
let overflows = 0
const onWarning = (warning: Error) => {
  if (warning.name === "TimeoutOverflowWarning") overflows++
}

beforeEach(() => {
  delays = []
  overflows = 0
  const setTimeout = globalThis.setTimeout
  vi.spyOn(globalThis, "setTimeout").mockImplementation(
    ((f: () => void, ms?: number, ...args: Array<unknown>) => {
      delays.push(ms ?? 0)
      return setTimeout(f, ms, ...args)
    }) as typeof globalThis.setTimeout
  )
  process.on("warning", onWarning)
})

afterEach(() => {
  vi.restoreAllMocks()
  process.off("warning", onWarning)
})

const durations: ReadonlyArray<readonly [string, Duration.DurationInput]> = [
  ["Duration.infinity", Duration.infinity],
  ["30 days", "30 days"],
  ["2^31 ms", Duration.millis(2 ** 31)]
]

describe("long timeouts", () => {
  for (const transport of transportNames) {
    for (const [name, duration] of durations) {
      it.live(`timeout and streamIdleTimeout of ${name}: calls and streams wait, over ${transport}`, () =>
        Effect.scoped(Effect.gen(function*() {
          const server = yield* hostileServer((request, response) => {
            if (request.headers.accept === "text/event-stream") {
              response.writeHead(200, { "content-type": "text/event-stream" })
              response.write(chunk("Hello"))
              // the rest once the client has had time to arm (and, before, overflow) its idle watch
              setImmediate(() => response.end(chunk(" world") + "data: [DONE]\n\n"))
              return
            }
            response.writeHead(200, { "content-type": "application/json" })
            response.end(completion)
          })
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
