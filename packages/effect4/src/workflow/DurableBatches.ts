/**
 * Batches of the Batch API waited on durably, on Effect's workflow engine (`effect/workflow`), inside any
 * workflow of one's own: the batch is created by an activity run once per workflow execution, whose result
 * (the created batch) is stored, then retrieved by activities with durable sleeps between them, polled as
 * `DurableMaestro` polls a run. After a crash, the engine replays the workflow from storage: the batch is not
 * created again, and waiting goes on from the last stored retrieve.
 *
 * @since 1.1.0
 */
import * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as Stream from "effect/Stream"
import * as Activity from "effect/workflow/Activity"
import type * as WorkflowEngine from "effect/workflow/WorkflowEngine"
import { isFinishedBatchStatus } from "studio-effect-core/wire/batches"
import { durableStepNames } from "studio-effect-core/workflow/durablePolling"
import * as Batches from "../Batches.js"
import { Batch } from "../BatchSchema.js"
import type { StudioClient } from "../StudioClient.js"
import { PollTimeout, StudioError } from "../StudioError.js"
import * as DurablePoll from "./durablePoll.js"

/**
 * How a batch is waited on inside a workflow: as `DurableMaestro` polls a run (delays from `initialDelay`
 * growing by ×1.5 up to `maxDelay`, for at most `deadline` of waiting in all; by default 1 second, 10
 * seconds and 10 minutes).
 *
 * @since 1.1.0
 * @category models
 */
export type DurablePollOptions = DurablePoll.DurablePollOptions

/**
 * Waits inside a workflow until a batch has finished (`COMPLETED`, `FAILED`, `CANCELLED` or `EXPIRED`): each
 * retrieve an activity, each wait a durable sleep, named by the batch's id and the step, so that one workflow
 * may wait on several batches. Every finished batch is a success, whatever its status: a batch that failed,
 * was cancelled or expired may still have results to read (`Batches.results`), and its `status` and
 * `request_counts` say what happened. A status that is not finished (`STALE` too) is polled again; passing
 * the deadline fails with `PollTimeout`, whose `runId` is the batch's id and `lastBatch` the batch as last
 * retrieved (its `lastRun` is absent): the batch goes on at the service, and waiting on it again with a later
 * deadline picks it up.
 *
 * @since 1.1.0
 * @category polling
 */
export const wait = (
  batch: Batch,
  options: DurablePollOptions = {}
): Effect.Effect<
  Batch,
  StudioError,
  StudioClient | WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance
> =>
  DurablePoll.pollDurably(batch, options, {
    settle: (snapshot) => isFinishedBatchStatus(snapshot.status) ? Effect.succeed(snapshot) : undefined,
    waitName: (step) => durableStepNames.batchWait(batch.id, step),
    retrieve: (step) =>
      Activity.make({
        name: durableStepNames.batchRetrieve(batch.id, step),
        success: Batch,
        error: StudioError,
        execute: Batches.retrieve(batch.id)
      }),
    timeout: (last) => new PollTimeout({ runId: last.id, lastBatch: last })
  })

const createActivity = <R>(execute: Effect.Effect<Batch, StudioError, R>) =>
  Activity.make({ name: durableStepNames.batchCreate, success: Batch, error: StudioError, execute })

/**
 * Creates a batch and waits until it has finished, inside a workflow (see `wait`). The create is an
 * activity, run once per workflow execution: its result (the created batch, or the error) is stored and the
 * batch is never created again, on a retry or after a restart; so a workflow creates one batch this way.
 * The JSONL file is not stored by the workflow: it is read and sent when the create runs, and only the
 * `Batch` the service answers (its id, status, counts and metadata) is kept. A file given as a `Stream` may
 * not fail (its errors could not be stored as the create's): give a path, bytes or a `Blob`, or handle the
 * stream's errors first. A file that breaks a rule fails with `ValidationError` before anything is sent.
 *
 * @since 1.1.0
 * @category operations
 */
export const createAndWait: {
  (request: Batches.CreateBatchOptions & { readonly file: string }, options?: DurablePollOptions): Effect.Effect<
    Batch,
    StudioError,
    StudioClient | FileSystem.FileSystem | WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance
  >
  <R = never>(
    request: Batches.CreateBatchOptions<never, R> & {
      readonly file: Uint8Array | Blob | Stream.Stream<Uint8Array, never, R>
    },
    options?: DurablePollOptions
  ): Effect.Effect<
    Batch,
    StudioError,
    StudioClient | R | WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance
  >
} = (request: Batches.CreateBatchOptions<never, any>, options: DurablePollOptions = {}): Effect.Effect<any, any, any> =>
  Effect.flatMap(createActivity(Batches.create(request as any)), (batch) => wait(batch, options))
