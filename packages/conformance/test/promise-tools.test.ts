/**
 * `chat.runTools` of the Promise API over a real socket (the reference service served by `Reference.listen`
 * on 127.0.0.1): the tool loop of `Chat.runTools` with plain async handlers, each given the call's parsed
 * arguments and an `AbortSignal`; it resolves with what the Effect API's loop returns, rejects with a
 * handler's own error, stops at `maxRounds`, refuses options out of bounds, and ends with the signal's reason
 * when its `signal` aborts, aborting the handlers in flight.
 */
import {
  afterAll,
  beforeAll,
  describe,
  Effect,
  Exit,
  expect,
  FetchHttpClient,
  it,
  Layer,
  Redacted,
  Scope
} from "@studio-effect/line"
import { Chat, StudioClient } from "studio-effect"
import { Studio, ToolCallError, type ToolHandlers, ValidationError } from "studio-effect/promise"
import * as Reference from "studio-effect/reference"
import { weather } from "./support/weather.js"

const key = "sk-tools-0123456789"

const request = {
  model: "fpmodel-mini",
  messages: [{ role: "user" as const, content: "What is the weather in Lisbon?" }],
  tools: [weather]
}

const scope = Effect.runSync(Scope.make())
/** The built-in model: it calls the tool once, then answers with what the tool returned. */
let builtInUrl: string
/** A model that calls `get_weather` on every completion, and how many completions it made. */
let loopingUrl: string
let loopingCompletions = 0

beforeAll(async () => {
  const listen = (options: Parameters<typeof Reference.listen>[0]) =>
    Effect.runPromise(Effect.provideService(Reference.listen(options), Scope.Scope, scope))
  builtInUrl = (await listen({ apiKeys: [key] })).url
  loopingUrl = (await listen({
    apiKeys: [key],
    model: () => {
      loopingCompletions++
      return { toolCalls: [{ name: "get_weather", arguments: { city: "Lisbon" } }] }
    }
  })).url
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const studioAt = (baseUrl: string) => new Studio({ apiKey: key, baseUrl, allowInsecureHttp: true, maxRetries: 0 })

const using = async <A>(baseUrl: string, use: (studio: Studio) => Promise<A>): Promise<A> => {
  const studio = studioAt(baseUrl)
  try {
    return await use(studio)
  } finally {
    await studio.close()
  }
}

const rejectionOf = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (e: unknown) => e)

describe("chat.runTools", () => {
  it("runs each call's handler with its parsed arguments and a signal, and ends as the Effect API's loop does", async () => {
    const calls: Array<{ readonly args: unknown; readonly signal: AbortSignal; readonly id: string }> = []
    const handlers: ToolHandlers = {
      get_weather: async (args, { call, signal }) => {
        calls.push({ args, signal, id: call.id })
        return { sky: "sunny", celsius: 21 }
      }
    }
    const result = await using(builtInUrl, (studio) => studio.chat.runTools(request, handlers))
    expect(calls).toHaveLength(1)
    expect(calls[0]!.args).toEqual({ city: expect.any(String) })
    expect(calls[0]!.signal).toBeInstanceOf(AbortSignal)
    expect(calls[0]!.signal.aborted).toBe(false)
    expect(Object.keys(result).sort()).toEqual(["completion", "finished", "messages", "rounds"])
    expect([result.rounds, result.finished]).toEqual([2, true])
    expect(result.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"])
    expect(result.messages[2]).toEqual({
      role: "tool",
      tool_call_id: calls[0]!.id,
      content: JSON.stringify({ sky: "sunny", celsius: 21 })
    })
    expect(result.completion.choices[0]?.message.content).toContain("get_weather tool returned")

    // the Effect API's loop, over the same socket, with the same handler
    const client = StudioClient.layer({ apiKey: Redacted.make(key), baseUrl: builtInUrl, allowInsecureHttp: true })
    const effectResult = await Effect.runPromise(
      Chat.runTools(request, { get_weather: () => Effect.succeed({ sky: "sunny", celsius: 21 }) }).pipe(
        Effect.provide(Layer.provide(client, FetchHttpClient.layer))
      )
    )
    const shape = (loop: typeof result) => ({
      rounds: loop.rounds,
      finished: loop.finished,
      roles: loop.messages.map((message) => message.role),
      answers: loop.messages.filter((message) => message.role === "tool").map((message) => message.content),
      // the built-in model words its opening by the request's ids; what the tool returned it reports alike
      reported: loop.completion.choices[0]?.message.content?.match(/The get_weather tool returned: [^.]*\./)?.[0]
    })
    expect(shape(result)).toEqual(shape(effectResult))
  })

  it("rejects with a failing handler's own error; a handler that returns its failure lets the model go on", async () => {
    const down = new Error("the weather service is down")
    const failed = await using(builtInUrl, (studio) =>
      rejectionOf(studio.chat.runTools(request, {
        get_weather: async () => {
          throw down
        }
      })))
    expect(failed).toBe(down)

    const thrownSync = new TypeError("not a city")
    const failedSync = await using(builtInUrl, (studio) =>
      rejectionOf(studio.chat.runTools(request, {
        get_weather: () => {
          throw thrownSync
        }
      })))
    expect(failedSync).toBe(thrownSync)

    const recovered = await using(builtInUrl, (studio) =>
      studio.chat.runTools(request, {
        get_weather: async () => {
          try {
            throw down
          } catch (error) {
            return { error: (error as Error).message }
          }
        }
      }))
    expect(recovered.finished).toBe(true)
    expect(recovered.completion.choices[0]?.message.content).toContain("the weather service is down")
  })

  it("stops at maxRounds with finished: false, and refuses a bound out of range before sending", async () => {
    let ran = 0
    const handlers: ToolHandlers = { get_weather: () => ++ran }
    const before = loopingCompletions
    const result = await using(loopingUrl, (studio) => studio.chat.runTools(request, handlers, { maxRounds: 3 }))
    expect([result.rounds, result.finished, ran, loopingCompletions - before]).toEqual([3, false, 2, 3])
    expect(result.messages.at(-1)?.role).toBe("assistant")

    const defaults = await using(loopingUrl, (studio) => studio.chat.runTools(request, handlers))
    expect([defaults.rounds, defaults.finished]).toEqual([8, false])

    ran = 0
    const sent = loopingCompletions
    for (const options of [{ maxRounds: 101 }, { maxRounds: 0 }, { concurrency: 65 }, { maxCallsPerRound: 129 }]) {
      const refused = await using(loopingUrl, (studio) => rejectionOf(studio.chat.runTools(request, handlers, options)))
      expect(refused, JSON.stringify(options)).toBeInstanceOf(ValidationError)
    }
    expect([ran, loopingCompletions - sent]).toEqual([0, 0])
  })

  it("rejects with ToolCallError for a call no handler answers, before any handler runs", async () => {
    let ran = 0
    const refused = await using(
      loopingUrl,
      (studio) => rejectionOf(studio.chat.runTools(request, { get_time: () => ++ran }))
    )
    expect(refused).toBeInstanceOf(ToolCallError)
    expect((refused as ToolCallError).reason).toBe("UnknownTool")
    expect(ran).toBe(0)
  })

  it("ends with the signal's reason when it aborts, aborting the handlers in flight", async () => {
    const reason = new Error("the user left")
    const controller = new AbortController()
    let handlerSignal: AbortSignal | undefined
    const before = loopingCompletions
    const aborted = await using(loopingUrl, (studio) =>
      rejectionOf(studio.chat.runTools(request, {
        get_weather: (_args, { signal }) =>
          new Promise((_resolve, reject) => {
            handlerSignal = signal
            signal.addEventListener("abort", () => reject(signal.reason), { once: true })
            controller.abort(reason)
          })
      }, { signal: controller.signal })))
    expect(aborted).toBe(reason)
    expect(handlerSignal?.aborted).toBe(true)
    expect(loopingCompletions - before).toBe(1)

    let ran = 0
    const early = await using(
      loopingUrl,
      (studio) =>
        rejectionOf(studio.chat.runTools(request, { get_weather: () => ++ran }, { signal: AbortSignal.abort(reason) }))
    )
    expect([early, ran]).toEqual([reason, 0])
  })
})
