/**
 * Durable runs on the in-memory workflow engine against the reference service, whose runs advance on
 * Effect's clock: the create happens once per key, polling waits on `TestClock`, a failed run and a passed
 * deadline are typed errors, and a request holding credentials is never stored.
 */
import {
  assert,
  describe,
  type DurationInput,
  Effect,
  Fiber,
  fork,
  isDone,
  it,
  Layer,
  WorkflowEngine
} from "@studio-effect/line"
import * as Reference from "studio-effect/reference"
import { DurableMaestro } from "studio-effect/workflow"
import { advanceBy, advanceUntil } from "../support/clock.js"

/** The reference service, counting the runs it creates; a run fails with `failure` when one is given. */
const countingService = (
  options: {
    readonly failure?: string
    readonly runStepDuration?: DurationInput
    readonly poll?: DurableMaestro.DurablePollOptions
  } = {}
) => {
  let creates = 0
  const client = Reference.layerClient({
    runStepDuration: options.runStepDuration ?? "1 second",
    failRun: () => {
      creates++
      return options.failure
    }
  })
  return {
    creates: () => creates,
    layer: DurableMaestro.layerWith(options.poll ?? {}).pipe(
      Layer.provideMerge(WorkflowEngine.layerMemory),
      Layer.provide(client)
    )
  }
}

const request = { input: "Describe a lighthouse", budget: "medium" as const }

describe("DurableMaestro on the in-memory workflow engine", () => {
  const service = countingService()
  it.effect("executing the same key twice gives the same run, created once", () =>
    Effect.gen(function*() {
      const first = yield* DurableMaestro.Workflow.execute({ key: "order-1", request }).pipe(fork)
      yield* advanceUntil(() => isDone(first), "1 second")
      const run = yield* Fiber.join(first)
      assert.strictEqual(run.status, "completed")
      const again = yield* DurableMaestro.Workflow.execute({ key: "order-1", request })
      assert.strictEqual(again.id, run.id)
      assert.strictEqual(service.creates(), 1)
      const other = yield* DurableMaestro.Workflow.execute({ key: "order-2", request }).pipe(fork)
      yield* advanceUntil(() => isDone(other), "1 second")
      assert.notStrictEqual((yield* Fiber.join(other)).id, run.id)
      assert.strictEqual(service.creates(), 2)
    }).pipe(Effect.provide(service.layer)))

  const slow = countingService({ runStepDuration: "10 seconds" })
  it.effect("polling waits on the clock: the run is not done until its steps have passed", () =>
    Effect.gen(function*() {
      const fiber = yield* DurableMaestro.Workflow.execute({ key: "slow", request }).pipe(fork)
      yield* advanceBy("5 seconds", "500 millis")
      assert.isFalse(isDone(fiber))
      yield* advanceUntil(() => isDone(fiber), "1 second")
      assert.strictEqual((yield* Fiber.join(fiber)).status, "completed")
      assert.strictEqual(slow.creates(), 1)
    }).pipe(Effect.provide(slow.layer)))

  const failing = countingService({ failure: "scripted failure" })
  it.effect("a failed run is RunFailed with the service's reason", () =>
    Effect.gen(function*() {
      const fiber = yield* DurableMaestro.Workflow.execute({ key: "fails", request }).pipe(Effect.flip, fork)
      yield* advanceUntil(() => isDone(fiber), "1 second")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "RunFailed")
      if (error._tag === "RunFailed") assert.strictEqual(error.reason, "scripted failure")
    }).pipe(Effect.provide(failing.layer)))

  const deadline = countingService({ runStepDuration: "1 minute", poll: { deadline: "20 seconds" } })
  it.effect("a deadline shorter than the run is PollTimeout with the last snapshot", () =>
    Effect.gen(function*() {
      const fiber = yield* DurableMaestro.Workflow.execute({ key: "late", request }).pipe(Effect.flip, fork)
      yield* advanceUntil(() => isDone(fiber), "1 second")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "PollTimeout")
      if (error._tag === "PollTimeout") assert.strictEqual(error.lastRun?.status, "in_progress")
    }).pipe(Effect.provide(deadline.layer)))

  const guarded = countingService()
  it.effect("a request whose tools carry credentials is refused before anything is stored or sent", () =>
    Effect.gen(function*() {
      const error = yield* DurableMaestro.Workflow.execute({
        key: "credentials",
        request: {
          input: "Use the tool",
          tools: [{
            type: "mcp",
            server_label: "tools",
            server_url: "https://tools.example/mcp",
            headers: { Authorization: "Bearer tool-secret" }
          }]
        }
      }).pipe(Effect.flip)
      assert.strictEqual(error._tag, "ValidationError")
      if (error._tag === "ValidationError") {
        assert.deepStrictEqual(error.issues.map((issue) => issue.path), ["tools[0].headers"])
        assert.notInclude(error.message, "tool-secret")
      }
      assert.strictEqual(guarded.creates(), 0)
    }).pipe(Effect.provide(guarded.layer)))
})
