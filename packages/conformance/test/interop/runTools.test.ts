/**
 * `Chat.runTools` against the reference service in memory: the loop, its bounds, and the typed outcome of
 * arguments that are not JSON, an unknown tool, a failing handler and the round limit.
 */
import { decodeOutcome, describe, Effect, expect, isSuccess, it, yieldNow } from "@studio-effect/line"
import * as fc from "fast-check"
import { Chat, ChatSchema, StudioError } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { question, weather } from "../support/weather.js"

/** A handler's own typed failure. */
class Offline {
  readonly _tag = "Offline"
  constructor(readonly city: string) {}
}

describe("Chat.runTools", () => {
  it.effect("calls the tool, sends its answer back, and returns the final answer with the whole conversation", () =>
    Effect.gen(function*() {
      const seen: Array<unknown> = []
      const result = yield* Chat.runTools(
        { model: "fpmodel-mini", messages: [question], tools: [weather] },
        {
          get_weather: (args) =>
            Effect.sync(() => {
              seen.push(args)
              return { city: "Lisbon", temperature: 21, sky: "sunny" }
            })
        }
      )
      expect(seen).toEqual([{ city: "Lisbon" }])
      expect(result.finished).toBe(true)
      expect(result.rounds).toBe(2)
      const [user, called, answered, final] = result.messages as ReadonlyArray<any>
      expect(user).toEqual(question)
      expect(called).toMatchObject({ role: "assistant", content: null })
      expect(called.tool_calls[0].function.name).toBe("get_weather")
      expect(answered).toEqual({
        role: "tool",
        tool_call_id: called.tool_calls[0].id,
        content: "{\"city\":\"Lisbon\",\"temperature\":21,\"sky\":\"sunny\"}"
      })
      expect(final).toEqual(result.completion.choices[0]!.message)
      expect(final.content).toContain("get_weather tool returned")
      expect(final.content).toContain("sunny")
      expect(result.messages).toHaveLength(4)
      // the conversation is a valid request as it is
      expect(
        isSuccess(decodeOutcome(ChatSchema.ChatRequest)({ model: "fpmodel-mini", messages: result.messages }))
      )
        .toBe(true)
    }).pipe(Effect.provide(Reference.layerClient())))

  it.effect("a string answer is sent as it is; a request without tool calls is one round", () =>
    Effect.gen(function*() {
      const result = yield* Chat.runTools(
        { model: "fpmodel-mini", messages: [question], tools: [weather] },
        { get_weather: () => Effect.succeed("cloudy, 14 degrees") }
      )
      expect((result.messages[2] as any).content).toBe("cloudy, 14 degrees")
      const big = yield* Chat.runTools(
        { model: "fpmodel-mini", messages: [question], tools: [weather] },
        { get_weather: () => Effect.succeed(10n) }
      )
      expect((big.messages[2] as any).content).toBe("10")
      const plain = yield* Chat.runTools({ model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] }, {})
      expect(plain.rounds).toBe(1)
      expect(plain.finished).toBe(true)
      expect(plain.messages).toHaveLength(2)
    }).pipe(Effect.provide(Reference.layerClient())))

  it.effect("runs a round's calls concurrently, never more than `concurrency` at once, answering in call order", () => {
    const calls = Array.from({ length: 6 }, (_, i) => ({ name: "get_weather", arguments: { city: `city ${i}` } }))
    return Effect.gen(function*() {
      let running = 0
      let most = 0
      const result = yield* Chat.runTools(
        { model: "fpmodel-mini", messages: [question], tools: [weather] },
        {
          get_weather: (args: any) =>
            Effect.gen(function*() {
              running++
              most = Math.max(most, running)
              for (let i = 0; i < 5; i++) yield* yieldNow
              running--
              return args.city
            })
        },
        { concurrency: 2 }
      )
      expect(most).toBe(2)
      expect(result.messages.slice(2, 8).map((m: any) => m.content)).toEqual(calls.map((c) => c.arguments.city))
    }).pipe(Effect.provide(Reference.layerClient({ model: [{ toolCalls: calls }] })))
  })

  it.effect("arguments that are not JSON fail with ToolCallError InvalidArguments before any handler runs", () =>
    Effect.gen(function*() {
      let ran = 0
      const error = yield* Effect.flip(Chat.runTools(
        { model: "fpmodel-mini", messages: [question], tools: [weather] },
        { get_weather: () => Effect.sync(() => ran++) }
      ))
      expect(error).toBeInstanceOf(Chat.ToolCallError)
      expect(error).toMatchObject({
        reason: "InvalidArguments",
        toolName: "get_weather",
        arguments: "{city: Lisbon",
        round: 1
      })
      expect((error as Chat.ToolCallError).message).toContain("not JSON")
      expect(ran).toBe(0)
    }).pipe(Effect.provide(Reference.layerClient({
      model: [{
        toolCalls: [{ name: "get_weather", arguments: "{\"city\":\"Porto\"}" }, {
          name: "get_weather",
          arguments: "{city: Lisbon"
        }]
      }]
    }))))

  it.effect("a tool with no handler fails with ToolCallError UnknownTool", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Chat.runTools(
        { model: "fpmodel-mini", messages: [question], tools: [weather] },
        { get_weather: () => Effect.succeed("sunny") }
      ))
      expect(error).toMatchObject({ _tag: "ToolCallError", reason: "UnknownTool", toolName: "get_time" })
      expect((error as Chat.ToolCallError).message).toContain("no handler")
    }).pipe(Effect.provide(Reference.layerClient({
      model: [{ toolCalls: [{ name: "get_time", arguments: {} }] }]
    }))))

  it.effect("a handler's failure fails the loop with that error, unchanged and typed", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Chat.runTools(
        { model: "fpmodel-mini", messages: [question], tools: [weather] },
        { get_weather: (args: any) => Effect.fail(new Offline(args.city)) }
      ))
      expect(error).toEqual(new Offline("Lisbon"))
    }).pipe(Effect.provide(Reference.layerClient())))

  it.effect("the round limit ends the loop with finished false and the last completion's message", () =>
    Effect.gen(function*() {
      let handled = 0
      const result = yield* Chat.runTools(
        { model: "fpmodel-mini", messages: [question], tools: [weather] },
        { get_weather: () => Effect.sync(() => ++handled) },
        { maxRounds: 3 }
      )
      expect(result.finished).toBe(false)
      expect(result.rounds).toBe(3)
      // handlers ran for the first two rounds; the third round's calls are returned, not run
      expect(handled).toBe(2)
      expect(result.messages).toHaveLength(1 + 2 * 2 + 1)
      expect((result.messages.at(-1) as any).tool_calls).toHaveLength(1)
    }).pipe(Effect.provide(Reference.layerClient({
      model: () => ({ toolCalls: [{ name: "get_weather", arguments: { city: "Lisbon" } }] })
    }))))

  it.effect("options out of their bounds are a ValidationError, and nothing is sent", () => {
    let generated = 0
    return Effect.gen(function*() {
      for (const options of [{ maxRounds: 0 }, { maxRounds: 101 }, { concurrency: 0 }, { concurrency: 1.5 }]) {
        const error = yield* Effect.flip(Chat.runTools({ model: "fpmodel-mini", messages: [question] }, {}, options))
        expect(error).toBeInstanceOf(StudioError.ValidationError)
        expect((error as StudioError.ValidationError).issues[0]!.path).toBe(Object.keys(options)[0])
      }
      expect(generated).toBe(0)
    }).pipe(Effect.provide(Reference.layerClient({ model: () => (generated++, "hello") })))
  })

  it.effect("for any number of calls per round and rounds, every call is answered once, in order", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
          fc.integer({ min: 1, max: 4 }),
          (perRound, concurrency) => {
            const script = perRound.map((count, round) => ({
              toolCalls: Array.from({ length: count }, (_, i) => ({
                name: "get_weather",
                arguments: { city: `${round}-${i}` }
              }))
            }))
            return Effect.runPromise(
              Effect.gen(function*() {
                const answered: Array<string> = []
                const result = yield* Chat.runTools(
                  { model: "fpmodel-mini", messages: [question], tools: [weather] },
                  { get_weather: (args: any) => Effect.sync(() => (answered.push(args.city), `ok ${args.city}`)) },
                  { concurrency, maxRounds: perRound.length + 1 }
                )
                expect(result.finished).toBe(true)
                expect(result.rounds).toBe(perRound.length + 1)
                expect([...answered].sort()).toEqual(
                  script.flatMap((s) => s.toolCalls.map((c) => c.arguments.city)).sort()
                )
                const tools = result.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content)
                expect(tools).toEqual(script.flatMap((s) => s.toolCalls.map((c) => `ok ${c.arguments.city}`)))
              }).pipe(Effect.provide(Reference.layerClient({ model: script })))
            )
          }
        ),
        { numRuns: 40 }
      )
    ))
})
