/**
 * The durable tool loop inside a workflow of one's own, on the in-memory workflow engine against the
 * reference service: the workflow sleeps durably after the loop, so the engine suspends it and replays it
 * on waking, and the replay takes every round and tool call from storage (the service counts its
 * completions, the handlers their runs). A handler's failure, bad options and a request holding credentials
 * are typed errors.
 */
import {
  assert,
  describe,
  DurableClock,
  Effect,
  Fiber,
  fork,
  isDone,
  isFailure,
  isSuccess,
  it,
  Layer,
  makeWorkflow,
  type Outcome,
  outcome,
  Schema,
  WorkflowEngine
} from "@studio-effect/line"
import * as fc from "fast-check"
import { Chat, type ChatSchema, type StudioClient, StudioError } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { DurableChat } from "studio-effect/workflow"
import { advanceUntil, waitUntil } from "../support/clock.js"
import { question, weather } from "../support/weather.js"

/** What the loop needs inside a workflow's handler. */
type LoopServices = StudioClient.StudioClient | WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance

/** A workflow whose handler runs one durable tool loop; its success the rounds, its error the failure's tag. */
const LoopWorkflow = makeWorkflow("test.durableChat", {
  payload: { key: Schema.String },
  success: Schema.Number,
  error: Schema.Struct({ failed: Schema.String }),
  idempotencyKey: ({ key }) => key
})

/**
 * The loop `loop` inside `LoopWorkflow`, over a reference service answering with `model` and counting its
 * completions; each run of the handler records the loop's outcome. With `suspend`, the handler then sleeps an
 * hour: the engine suspends the workflow and replays it when the clock wakes it.
 */
const durableLoop = <E extends { readonly _tag: string }>(
  loop: () => Effect.Effect<Chat.ToolLoopResult, E, LoopServices>,
  options: { readonly model?: Reference.Model.Model; readonly suspend?: boolean } = {}
) => {
  const model = options.model ?? Reference.Model.builtIn
  const state = { completions: 0, executions: 0, outcomes: [] as Array<Outcome<Chat.ToolLoopResult, E>> }
  const client = Reference.layerClient({
    model: (request, context) => {
      state.completions++
      return model(request, context)
    }
  })
  const layer = LoopWorkflow.toLayer(() =>
    Effect.gen(function*() {
      state.executions++
      const result = yield* outcome(loop())
      state.outcomes.push(result)
      if (options.suspend !== false) yield* DurableClock.sleep({ name: "test.afterLoop", duration: "1 hour" })
      if (isSuccess(result)) return result.success.rounds
      return yield* Effect.fail({ failed: result.failure._tag })
    })
  ).pipe(Layer.provideMerge(WorkflowEngine.layerMemory), Layer.provideMerge(client))
  /**
   * Executes the workflow of `key` to its end, advancing the clock past the handler's sleep. The clock moves
   * only once the handler has started: the engine derives the execution's id off the event loop (a digest on
   * Effect 4), so how many turns that takes is not the test's to bound.
   */
  const execute = (key: string) =>
    Effect.gen(function*() {
      const started = state.executions
      const fiber = yield* LoopWorkflow.execute({ key }).pipe(outcome, fork)
      yield* waitUntil(() => state.executions > started || isDone(fiber))
      yield* advanceUntil(() => isDone(fiber), "10 minutes", 100)
      return yield* Fiber.join(fiber)
    })
  return { state, layer, execute }
}

const request: ChatSchema.ChatRequest = { model: "fpmodel-mini", messages: [question], tools: [weather] }

/** A handler's own failure, stored with its schema. */
const Offline = Schema.Struct({ _tag: Schema.Literal("Offline"), city: Schema.String })

describe("DurableChat.runTools on the in-memory workflow engine", () => {
  const runs: Array<unknown> = []
  const weatherLoop = durableLoop(() =>
    DurableChat.runTools(request, {
      get_weather: (args) =>
        Effect.sync(() => {
          runs.push(args)
          return { city: "Lisbon", temperature: 21, sky: "sunny" }
        })
    })
  )
  it.effect("ends with the conversation of Chat.runTools; a replay and a second execution create and run nothing", () =>
    Effect.gen(function*() {
      const ended = yield* weatherLoop.execute("weather-1")
      assert.isTrue(isSuccess(ended) && ended.success === 2)
      // the handler ran twice (the first run, then the replay after the sleep), the loop's steps once
      assert.strictEqual(weatherLoop.state.executions, 2)
      assert.deepStrictEqual(runs, [{ city: "Lisbon" }])
      assert.strictEqual(weatherLoop.state.completions, 2)
      const [first, replayed] = weatherLoop.state.outcomes
      assert.isTrue(first !== undefined && isSuccess(first))
      assert.isTrue(replayed !== undefined && isSuccess(replayed))
      if (first === undefined || !isSuccess(first) || replayed === undefined || !isSuccess(replayed)) return
      assert.deepStrictEqual(replayed.success, first.success)
      const result = first.success
      assert.isTrue(result.finished)
      assert.strictEqual(result.rounds, 2)
      const [user, called, answered, final] = result.messages as ReadonlyArray<any>
      assert.deepStrictEqual(user, question)
      assert.strictEqual(called.role, "assistant")
      assert.strictEqual(called.tool_calls[0].function.name, "get_weather")
      assert.deepStrictEqual(answered, {
        role: "tool",
        tool_call_id: called.tool_calls[0].id,
        content: "{\"city\":\"Lisbon\",\"temperature\":21,\"sky\":\"sunny\"}"
      })
      assert.deepStrictEqual(final, result.completion.choices[0]!.message)
      assert.include(final.content, "sunny")
      assert.strictEqual(result.messages.length, 4)

      const again = yield* weatherLoop.execute("weather-1")
      assert.isTrue(isSuccess(again) && again.success === 2)
      assert.strictEqual(weatherLoop.state.executions, 2)
      assert.strictEqual(runs.length, 1)
      assert.strictEqual(weatherLoop.state.completions, 2)
    }).pipe(Effect.provide(weatherLoop.layer)))

  const cities: Array<string> = []
  const twoCalls = durableLoop(
    () =>
      DurableChat.runTools(request, {
        get_weather: (args) =>
          Effect.sync(() => {
            const city = (args as { readonly city: string }).city
            cities.push(city)
            return `clear in ${city}`
          })
      }, { concurrency: 2 }),
    {
      model: Reference.Model.script([{
        toolCalls: [
          { name: "get_weather", arguments: { city: "Lisbon" } },
          { name: "get_weather", arguments: { city: "Porto" } }
        ]
      }])
    }
  )
  it.effect("each call of a round is its own step, run once and answered in call order on the replay", () =>
    Effect.gen(function*() {
      const ended = yield* twoCalls.execute("two-calls")
      assert.isTrue(isSuccess(ended) && ended.success === 2)
      assert.deepStrictEqual([...cities].sort(), ["Lisbon", "Porto"])
      assert.strictEqual(twoCalls.state.completions, 2)
      const replayed = twoCalls.state.outcomes[1]
      assert.isTrue(replayed !== undefined && isSuccess(replayed))
      if (replayed === undefined || !isSuccess(replayed)) return
      const answers = replayed.success.messages.filter((message) => message.role === "tool")
      assert.deepStrictEqual(answers.map((message) => message.content), ["clear in Lisbon", "clear in Porto"])
    }).pipe(Effect.provide(twoCalls.layer)))

  const visits: Array<string> = []
  const stopped = durableLoop(
    () =>
      DurableChat.runTools(request, {
        get_weather: (args) => {
          const city = (args as { readonly city: string }).city
          const visit = Effect.sync(() => (visits.push(city), `clear in ${city}`))
          // Porto's lookup waits an hour: the workflow is suspended in the middle of the loop
          return city === "Porto"
            ? visit.pipe(Effect.tap(() => DurableClock.sleep({ name: "test.porto", duration: "1 hour" })))
            : visit
        }
      }, { concurrency: 1 }),
    {
      suspend: false,
      model: Reference.Model.script([{
        toolCalls: [
          { name: "get_weather", arguments: { city: "Lisbon" } },
          { name: "get_weather", arguments: { city: "Porto" } }
        ]
      }])
    }
  )
  it.effect("a loop stopped in the middle goes on from its first step not stored", () =>
    Effect.gen(function*() {
      const ended = yield* stopped.execute("stopped")
      assert.isTrue(isSuccess(ended) && ended.success === 2)
      assert.strictEqual(stopped.state.executions, 2)
      // the first round and Lisbon's call were stored before the stop; Porto's, unfinished, runs again
      assert.deepStrictEqual(visits, ["Lisbon", "Porto", "Porto"])
      assert.strictEqual(stopped.state.completions, 2)
      const result = stopped.state.outcomes[0]
      assert.isTrue(stopped.state.outcomes.length === 1 && result !== undefined && isSuccess(result))
      if (result === undefined || !isSuccess(result)) return
      const answers = result.success.messages.filter((message) => message.role === "tool")
      assert.deepStrictEqual(answers.map((message) => message.content), ["clear in Lisbon", "clear in Porto"])
    }).pipe(Effect.provide(stopped.layer)))

  let offlineRuns = 0
  const offline = durableLoop(() =>
    DurableChat.runTools(request, {
      get_weather: () =>
        Effect.suspend(() => (offlineRuns++, Effect.fail({ _tag: "Offline" as const, city: "Lisbon" })))
    }, { toolError: Offline })
  )
  it.effect("a handler's failure is its own typed error, stored: the replay gives it again without the handler", () =>
    Effect.gen(function*() {
      const ended = yield* offline.execute("offline")
      assert.isTrue(isFailure(ended) && ended.failure.failed === "Offline")
      assert.strictEqual(offlineRuns, 1)
      assert.strictEqual(offline.state.completions, 1)
      assert.strictEqual(offline.state.outcomes.length, 2)
      for (const result of offline.state.outcomes) {
        assert.isTrue(isFailure(result))
        if (isFailure(result)) assert.deepStrictEqual({ ...result.failure }, { _tag: "Offline", city: "Lisbon" })
      }
    }).pipe(Effect.provide(offline.layer)))

  let lookups = 0
  const studioFailure = durableLoop(() =>
    DurableChat.runTools(request, {
      // a handler that asks the service itself, failing as the service's calls do
      get_weather: () =>
        Effect.suspend(() => (lookups++, Chat.create({ model: "fpmodel-mini", messages: [] }))).pipe(
          Effect.map((completion) => completion.id)
        )
    })
  )
  it.effect("a handler failing with a StudioError needs no schema: the replay decodes it as that error", () =>
    Effect.gen(function*() {
      const ended = yield* studioFailure.execute("studio-failure")
      assert.isTrue(isFailure(ended) && ended.failure.failed === "ValidationError")
      assert.strictEqual(lookups, 1)
      assert.strictEqual(studioFailure.state.outcomes.length, 2)
      for (const result of studioFailure.state.outcomes) {
        assert.isTrue(isFailure(result) && result.failure instanceof StudioError.ValidationError)
        if (isFailure(result) && result.failure instanceof StudioError.ValidationError) {
          assert.deepStrictEqual(result.failure.issues.map((issue) => issue.path), ["messages"])
        }
      }
    }).pipe(Effect.provide(studioFailure.layer)))

  const limits = { maxRounds: 100, concurrency: 64, maxCallsPerRound: 128 } as const
  const badOptions = fc.constantFrom<keyof typeof limits>("maxRounds", "concurrency", "maxCallsPerRound").chain((
    field
  ) =>
    fc.oneof(
      fc.integer({ min: -1_000, max: 0 }),
      fc.integer({ min: limits[field] + 1, max: 100_000 }),
      fc.double({ min: 0.1, max: 99.9, noInteger: true })
    ).map((value) => ({ [field]: value }))
  )
  const samples = fc.sample(badOptions, 20)
  let current: Chat.RunToolsOptions = {}
  let badRuns = 0
  const bounded = durableLoop(
    () => DurableChat.runTools(request, { get_weather: () => Effect.sync(() => badRuns++) }, current),
    { suspend: false }
  )
  it.effect("options out of their bounds are a ValidationError at that option, before anything is created", () =>
    Effect.gen(function*() {
      for (const [index, options] of samples.entries()) {
        current = options
        yield* bounded.execute(`bad-${index}`)
        const result = bounded.state.outcomes[index]
        assert.isTrue(result !== undefined && isFailure(result))
        if (result === undefined || !isFailure(result)) return
        assert.strictEqual(result.failure._tag, "ValidationError")
        if (result.failure._tag === "ValidationError") {
          assert.deepStrictEqual(result.failure.issues.map((issue) => issue.path), Object.keys(options))
        }
      }
      assert.strictEqual(bounded.state.completions, 0)
      assert.strictEqual(badRuns, 0)
    }).pipe(Effect.provide(bounded.layer)))

  let keyedRuns = 0
  const keyedTool = { ...weather, headers: { Authorization: "Bearer tool-secret" } }
  const guarded = durableLoop(() =>
    DurableChat.runTools(
      { model: "fpmodel-mini", messages: [question], tools: [keyedTool] },
      { get_weather: () => Effect.sync(() => keyedRuns++) }
    ), { suspend: false })
  it.effect("a request whose tools carry credentials is refused before anything is sent or run", () =>
    Effect.gen(function*() {
      const ended = yield* guarded.execute("credentials")
      assert.isTrue(isFailure(ended) && ended.failure.failed === "ValidationError")
      const result = guarded.state.outcomes[0]
      assert.isTrue(result !== undefined && isFailure(result) && result.failure._tag === "ValidationError")
      if (result !== undefined && isFailure(result) && result.failure._tag === "ValidationError") {
        assert.deepStrictEqual(result.failure.issues.map((issue) => issue.path), ["tools[0].headers"])
        assert.notInclude(result.failure.message, "tool-secret")
      }
      assert.strictEqual(guarded.state.completions, 0)
      assert.strictEqual(keyedRuns, 0)
    }).pipe(Effect.provide(guarded.layer)))
})
