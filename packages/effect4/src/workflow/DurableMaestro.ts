/**
 * Orchestration runs that survive a restart, on Effect's workflow engine (`effect/workflow`): the run is
 * created by an activity run once per workflow execution, whose result is stored, and polled by retrieve
 * activities with durable sleeps between them. After a crash, the engine replays the workflow from storage:
 * the create is not sent again, and polling goes on from the last stored retrieve.
 *
 * @since 1.1.0
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Activity from "effect/workflow/Activity"
import * as EffectWorkflow from "effect/workflow/Workflow"
import type * as WorkflowEngine from "effect/workflow/WorkflowEngine"
import { runFailureReason } from "studio-effect-core/wire/runs"
import { durableStepNames } from "studio-effect-core/workflow/durablePolling"
import * as Maestro from "../Maestro.js"
import { isTerminal, MaestroRun, RunRequest } from "../MaestroSchema.js"
import type { StudioClient } from "../StudioClient.js"
import { PollTimeout, RunFailed, StudioError } from "../StudioError.js"
import * as DurablePoll from "./durablePoll.js"
import { refuseStoredCredentials } from "./storedRequest.js"

/**
 * How a run is polled inside a workflow. The delays grow from `initialDelay` by ×1.5 up to `maxDelay`, with
 * no jitter, so that a replay waits for the same steps; `deadline` bounds the sum of the delays (the time the
 * workflow waits, however long it is suspended in between), then polling fails with `PollTimeout`.
 *
 * @since 1.1.0
 * @category models
 */
export type DurablePollOptions = DurablePoll.DurablePollOptions

/**
 * Polls a run inside a workflow until it is terminal: each retrieve an activity, each wait a durable sleep.
 * A `failed` run fails with `RunFailed`; passing the deadline with `PollTimeout` (the last snapshot).
 *
 * @since 1.1.0
 * @category polling
 */
export const poll = (
  run: MaestroRun,
  options: DurablePollOptions = {}
): Effect.Effect<
  MaestroRun,
  StudioError,
  StudioClient | WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance
> =>
  DurablePoll.pollDurably(run, options, {
    settle: (snapshot) =>
      snapshot.status === "failed"
        ? Effect.fail(new RunFailed({ run: snapshot, reason: runFailureReason(snapshot) }))
        : isTerminal(snapshot)
        ? Effect.succeed(snapshot)
        : undefined,
    waitName: durableStepNames.wait,
    retrieve: (step) => retrieveActivity(run.id, step),
    timeout: (last) => new PollTimeout({ runId: last.id, lastRun: last })
  })

const retrieveActivity = (runId: string, index: number) =>
  Activity.make({
    name: durableStepNames.retrieve(index),
    success: MaestroRun,
    error: StudioError,
    execute: Maestro.retrieve(runId)
  })

/**
 * Creates a run and polls it until it is terminal, inside a workflow. The create is an activity, run once
 * per workflow execution: its result (the run, or the error) is stored and never sent again, on a retry or
 * after a restart. A request whose tools carry credentials fails with `ValidationError`, since the
 * workflow would store them.
 *
 * @since 1.1.0
 * @category operations
 */
export const createAndPoll = (
  request: RunRequest,
  options: DurablePollOptions = {}
): Effect.Effect<
  MaestroRun,
  StudioError,
  StudioClient | WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance
> =>
  refuseStoredCredentials("maestro.create", request).pipe(
    Effect.andThen(
      Activity.make({
        name: durableStepNames.create,
        success: MaestroRun,
        error: StudioError,
        execute: Maestro.create(request)
      })
    ),
    Effect.flatMap((run) => poll(run, options))
  )

/**
 * A ready workflow: its payload a `key` (executing the same key again gives the same run, created once) and
 * the run's request; its success the terminal run, its error a `StudioError`.
 *
 * @since 1.1.0
 * @category workflows
 */
export const Workflow = EffectWorkflow.make("studio.maestro.createAndPoll", {
  payload: { key: Schema.String, request: RunRequest },
  success: MaestroRun,
  error: StudioError,
  idempotencyKey: ({ key }) => key
})

/**
 * Registers `Workflow`'s handler with the workflow engine: `createAndPoll` of the payload's request, polled
 * as `options` say. It needs the engine and a `StudioClient`.
 *
 * @since 1.1.0
 * @category layers
 */
export const layerWith = (options: DurablePollOptions) =>
  Workflow.toLayer(({ request }) => createAndPoll(request, options))

/**
 * Registers `Workflow`'s handler with the default polling (see `layerWith`).
 *
 * @since 1.1.0
 * @category layers
 */
export const layer = layerWith({})
