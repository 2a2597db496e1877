/**
 * Polling inside a workflow, shared by the durable runs and the durable batches: the options of the polling
 * plan, and the loop whose every retrieve is an activity and every wait a durable sleep, each named by its
 * step so that a replay finds its stored result.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as DurableClock from "effect/workflow/DurableClock"
import type * as WorkflowEngine from "effect/workflow/WorkflowEngine"
import {
  defaultDurablePollPlan,
  type DurablePollPlan,
  type DurablePollWait,
  nextDurablePoll
} from "studio-effect-core/workflow/durablePolling"

/**
 * How a run or a batch is polled inside a workflow. The delays grow from `initialDelay` by ×1.5 up to
 * `maxDelay`, with no jitter, so that a replay waits for the same steps; `deadline` bounds the sum of the
 * delays (the time the workflow waits, however long it is suspended in between), then polling fails with
 * `PollTimeout`.
 */
export interface DurablePollOptions {
  /** The first delay between two retrieves. Default 1 second. */
  readonly initialDelay?: Duration.Input | undefined
  /** The longest delay between two retrieves. Default 10 seconds. */
  readonly maxDelay?: Duration.Input | undefined
  /** How long the delays may add up to. Default 10 minutes. */
  readonly deadline?: Duration.Input | undefined
}

const planOf = (options: DurablePollOptions): DurablePollPlan => ({
  initialDelayMillis: millisOf(options.initialDelay, defaultDurablePollPlan.initialDelayMillis),
  maxDelayMillis: millisOf(options.maxDelay, defaultDurablePollPlan.maxDelayMillis),
  deadlineMillis: millisOf(options.deadline, defaultDurablePollPlan.deadlineMillis)
})

const millisOf = (input: Duration.Input | undefined, fallback: number): number =>
  input === undefined ? fallback : Duration.toMillis(Duration.fromInputUnsafe(input))

/** The steps of one durably polled thing: when it is done, how a step is named and retrieved, its timeout. */
export interface DurablePollSteps<A, E, R> {
  /** The outcome of a snapshot that ends polling, or `undefined` to poll again. */
  readonly settle: (snapshot: A) => Effect.Effect<A, E> | undefined
  /** The name of the durable sleep before retrieve number `step`. */
  readonly waitName: (step: number) => string
  /** Retrieve number `step`, an activity. */
  readonly retrieve: (step: number) => Effect.Effect<A, E, R>
  /** The failure when the deadline passes, from the last snapshot. */
  readonly timeout: (last: A) => E
}

/**
 * Polls from `first` until `steps.settle` ends it, waiting as `options` plan between retrieves; passing the
 * plan's deadline fails with `steps.timeout` of the last snapshot.
 */
export const pollDurably = <A, E, R>(
  first: A,
  options: DurablePollOptions,
  steps: DurablePollSteps<A, E, R>
): Effect.Effect<A, E, R | WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance> => {
  const plan = planOf(options)
  const step = (
    snapshot: A,
    previous: DurablePollWait | undefined
  ): Effect.Effect<A, E, R | WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance> => {
    const settled = steps.settle(snapshot)
    if (settled !== undefined) return settled
    const wait = nextDurablePoll(plan, previous)
    if (wait === undefined) return Effect.fail(steps.timeout(snapshot))
    return DurableClock.sleep({ name: steps.waitName(wait.step), duration: Duration.millis(wait.delayMillis) }).pipe(
      Effect.andThen(steps.retrieve(wait.step)),
      Effect.flatMap((next) => step(next, wait))
    )
  }
  return step(first, undefined)
}
