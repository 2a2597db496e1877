/**
 * Batches waited on durably inside workflows of one's own, on the in-memory workflow engine against the
 * reference service, whose batches advance on Effect's clock: a batch is created once per workflow key (the
 * service's list counts them), also when the engine replays the workflow after a durable sleep; waiting
 * advances on `TestClock` and ends with the finished batch, its results readable; a cancelled batch ends
 * `CANCELLED`; a passed deadline is `PollTimeout` carrying the batch; a file that breaks a rule is refused
 * before anything is created.
 */
import {
  assert,
  describe,
  DurableClock,
  type DurationInput,
  Effect,
  Fiber,
  fork,
  isDone,
  it,
  Layer,
  makeWorkflow,
  Schema,
  WorkflowEngine
} from "@studio-effect/line"
import { Batches, BatchSchema, StudioError } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { DurableBatches } from "studio-effect/workflow"
import { advanceBy, advanceUntil, waitUntil } from "../support/clock.js"

const encoder = new TextEncoder()

/** A JSONL file of one chat request a line, each with its custom id. */
const jsonl = (customIds: ReadonlyArray<string>) =>
  encoder.encode(
    customIds.map((customId) =>
      JSON.stringify({
        custom_id: customId,
        method: "POST",
        url: "/v1/chat/completions",
        body: { model: "fpmodel-mini", messages: [{ role: "user", content: `Question ${customId}` }] }
      })
    ).join("\n") + "\n"
  )

/** A workflow that creates a batch of one line per custom id, waits on it, then sleeps durably an hour. */
const CreateWorkflow = makeWorkflow("test.durableBatches.createAndWait", {
  payload: { key: Schema.String, customIds: Schema.Array(Schema.String) },
  success: BatchSchema.Batch,
  error: StudioError.StudioError,
  idempotencyKey: ({ key }) => key
})

/** A workflow that waits on a batch created outside it. */
const WaitWorkflow = makeWorkflow("test.durableBatches.wait", {
  payload: { batch: BatchSchema.Batch },
  success: BatchSchema.Batch,
  error: StudioError.StudioError,
  idempotencyKey: ({ batch }) => batch.id
})

/**
 * Both workflows over a reference service whose batches are `PENDING` for `pending`, then take `line` a line;
 * `executions` counts the runs of `CreateWorkflow`'s handler (a replay runs it again).
 */
const batchService = (
  options: {
    readonly pending?: DurationInput
    readonly line?: DurationInput
    readonly poll?: DurableBatches.DurablePollOptions
  } = {}
) => {
  const state = { executions: 0 }
  const client = Reference.layerClient({
    batchPendingDuration: options.pending ?? "2 seconds",
    batchLineDuration: options.line ?? "1 second"
  })
  const workflows = Layer.mergeAll(
    CreateWorkflow.toLayer(({ customIds, key }) =>
      Effect.gen(function*() {
        state.executions++
        const batch = yield* DurableBatches.createAndWait({ file: jsonl(customIds), metadata: { key } }, options.poll)
        // the engine suspends the workflow here and replays it on waking: the create must come from storage
        yield* DurableClock.sleep({ name: "test.afterWait", duration: "1 hour" })
        return batch
      })
    ),
    WaitWorkflow.toLayer(({ batch }) => DurableBatches.wait(batch, options.poll))
  )
  return {
    state,
    layer: workflows.pipe(Layer.provideMerge(WorkflowEngine.layerMemory), Layer.provideMerge(client))
  }
}

/** The batches the service holds (a page larger than any test makes). */
const createdBatches = Batches.list({ limit: 100 })

describe("DurableBatches on the in-memory workflow engine", () => {
  const service = batchService()
  it.effect("a batch is created once per workflow key, replays included, and waited on until COMPLETED", () =>
    Effect.gen(function*() {
      const first = yield* CreateWorkflow.execute({ key: "nightly-1", customIds: ["a", "b", "c"] }).pipe(fork)
      // the clock moves once the handler runs: the engine derives the execution's id off the event loop
      yield* waitUntil(() => service.state.executions > 0 || isDone(first))
      yield* advanceUntil(() => isDone(first), "10 minutes", 100)
      const batch = yield* Fiber.join(first)
      assert.strictEqual(batch.status, "COMPLETED")
      assert.deepStrictEqual(batch.request_counts, { total: 3, completed: 3, failed: 0 })
      assert.deepStrictEqual(batch.metadata, { key: "nightly-1" })
      assert.isAtLeast(service.state.executions, 2, "the engine replayed the workflow after its sleep")
      assert.deepStrictEqual((yield* createdBatches).map((created) => created.id), [batch.id])
      const results = yield* Batches.results(batch.id)
      assert.deepStrictEqual(results.map((result) => result.custom_id), ["a", "b", "c"])

      const again = yield* CreateWorkflow.execute({ key: "nightly-1", customIds: ["a", "b", "c"] })
      assert.strictEqual(again.id, batch.id)
      assert.strictEqual((yield* createdBatches).length, 1)

      const executions = service.state.executions
      const other = yield* CreateWorkflow.execute({ key: "nightly-2", customIds: ["d"] }).pipe(fork)
      yield* waitUntil(() => service.state.executions > executions || isDone(other))
      yield* advanceUntil(() => isDone(other), "10 minutes", 100)
      const second = yield* Fiber.join(other)
      assert.notStrictEqual(second.id, batch.id)
      assert.strictEqual(second.status, "COMPLETED")
      assert.sameMembers((yield* createdBatches).map((created) => created.id), [batch.id, second.id])
    }).pipe(Effect.provide(service.layer)))

  const slow = batchService({ pending: "5 seconds", line: "2 seconds" })
  it.effect("waiting advances on the clock: the batch is not done until its lines have run", () =>
    Effect.gen(function*() {
      const created = yield* Batches.create({ file: jsonl(["q1", "q2", "q3"]) })
      assert.strictEqual(created.status, "PENDING")
      const fiber = yield* WaitWorkflow.execute({ batch: created }).pipe(fork)
      yield* advanceBy("8 seconds", "500 millis")
      assert.isFalse(isDone(fiber))
      const midway = yield* Batches.retrieve(created.id)
      assert.strictEqual(midway.status, "PROCESSING")
      yield* advanceUntil(() => isDone(fiber), "500 millis")
      const finished = yield* Fiber.join(fiber)
      assert.strictEqual(finished.id, created.id)
      assert.strictEqual(finished.status, "COMPLETED")
      assert.deepStrictEqual(finished.request_counts, { total: 3, completed: 3, failed: 0 })
      const results = yield* Batches.results(created.id)
      assert.deepStrictEqual(results.map((result) => result.custom_id), ["q1", "q2", "q3"])
    }).pipe(Effect.provide(slow.layer)))

  const cancelling = batchService({ pending: "1 second", line: "1 second" })
  it.effect("a batch cancelled while it is waited on ends the wait with its CANCELLED status and counts", () =>
    Effect.gen(function*() {
      const created = yield* Batches.create({ file: jsonl(["r0", "r1", "r2", "r3", "r4", "r5"]) })
      const fiber = yield* WaitWorkflow.execute({ batch: created }).pipe(fork)
      yield* advanceBy("2500 millis", "500 millis")
      assert.isFalse(isDone(fiber))
      const cancelled = yield* Batches.cancel(created.id)
      assert.strictEqual(cancelled.status, "CANCELLED")
      yield* advanceUntil(() => isDone(fiber), "500 millis")
      const finished = yield* Fiber.join(fiber)
      assert.strictEqual(finished.status, "CANCELLED")
      assert.deepStrictEqual(finished.request_counts, cancelled.request_counts)
      assert.isBelow(finished.request_counts.completed, 6)
    }).pipe(Effect.provide(cancelling.layer)))

  const late = batchService({ pending: "1 hour", poll: { deadline: "20 seconds" } })
  it.effect("a deadline shorter than the batch is PollTimeout carrying the batch as last retrieved", () =>
    Effect.gen(function*() {
      const created = yield* Batches.create({ file: jsonl(["x"]) })
      const fiber = yield* WaitWorkflow.execute({ batch: created }).pipe(Effect.flip, fork)
      yield* advanceUntil(() => isDone(fiber), "1 second")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "PollTimeout")
      if (error._tag === "PollTimeout") {
        assert.strictEqual(error.runId, created.id)
        assert.strictEqual(error.lastBatch?.id, created.id)
        assert.strictEqual(error.lastBatch?.status, "PENDING")
        assert.isUndefined(error.lastRun)
        assert.include(error.message, `Batch ${created.id}`)
        assert.include(error.message, "PENDING")
      }
      const later = yield* Batches.retrieve(created.id)
      assert.strictEqual(later.status, "PENDING", "the batch goes on at the service")
    }).pipe(Effect.provide(late.layer)))

  const refusing = batchService()
  it.effect("a file that breaks a rule is ValidationError, and no batch is created", () =>
    Effect.gen(function*() {
      const error = yield* CreateWorkflow.execute({ key: "twice", customIds: ["same", "same"] }).pipe(Effect.flip)
      assert.strictEqual(error._tag, "ValidationError")
      assert.include(error.message, "same")
      assert.deepStrictEqual(yield* createdBatches, [])
    }).pipe(Effect.provide(refusing.layer)))
})
