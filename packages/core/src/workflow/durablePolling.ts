/**
 * How a run is polled inside a durable workflow, where every step is replayed from storage after a restart
 * and so must come out the same each time: the delays grow as `Maestro.poll`'s default does (1 s, ×1.5, at
 * most 10 s) without its jitter, and the deadline is a budget of scheduled waiting rather than a reading of
 * the clock. The activities and clocks are named by their step, so a replay finds each one's stored result.
 *
 * @since 1.1.0
 */
import { forEachToolCredential } from "../secrets/toolCredentials.js"

/**
 * The delays between the retrieves of a durably polled run.
 *
 * @since 1.1.0
 * @category models
 */
export interface DurablePollPlan {
  /** The first delay, in milliseconds. */
  readonly initialDelayMillis: number
  /** The longest delay, in milliseconds. */
  readonly maxDelayMillis: number
  /** How long the delays may add up to before polling fails with `PollTimeout`, in milliseconds. */
  readonly deadlineMillis: number
}

/**
 * The default plan: 1 s growing by ×1.5 up to 10 s between retrieves, for at most 10 minutes of waiting.
 *
 * @since 1.1.0
 * @category constants
 */
export const defaultDurablePollPlan: DurablePollPlan = {
  initialDelayMillis: 1_000,
  maxDelayMillis: 10_000,
  deadlineMillis: 10 * 60_000
}

/** The growth of the delay from one retrieve to the next. */
const growth = 1.5

/**
 * The most retrieves of one run, whatever the plan: each is a stored activity, so a plan of zero delays must
 * still end (with `PollTimeout`) rather than write without bound.
 *
 * @since 1.1.0
 * @category constants
 */
export const maxDurableRetrieves = 1_000

/**
 * One wait of a durably polled run: the one before retrieve number `step` (0 for the first).
 *
 * @since 1.1.0
 * @category models
 */
export interface DurablePollWait {
  /** The retrieve this wait comes before, from 0. */
  readonly step: number
  /** How long to wait, in whole milliseconds, so the value is the same on every replay. */
  readonly delayMillis: number
  /** The waits of the run so far, this one included, in milliseconds. */
  readonly waitedMillis: number
}

/**
 * The wait after `previous` (the first wait without it), or `undefined` when waiting that long would pass
 * the plan's deadline or the retrieve would be past `maxDurableRetrieves`. Each wait is worked out from the
 * one before, so polling a run costs the same for every step.
 *
 * @since 1.1.0
 * @category polling
 */
export const nextDurablePoll = (plan: DurablePollPlan, previous?: DurablePollWait): DurablePollWait | undefined => {
  const step = previous === undefined ? 0 : previous.step + 1
  if (step >= maxDurableRetrieves) return undefined
  const first = Math.max(0, plan.initialDelayMillis)
  // the first delay grows from the plan's, before it is held to the longest
  const grown = previous === undefined
    ? first
    : Math.min(Math.round((previous.step === 0 ? first : previous.delayMillis) * growth), plan.maxDelayMillis)
  const delayMillis = Math.min(grown, plan.maxDelayMillis)
  const waitedMillis = (previous?.waitedMillis ?? 0) + delayMillis
  return waitedMillis > plan.deadlineMillis ? undefined : { step, delayMillis, waitedMillis }
}

/**
 * The names of the durable steps: a polled run's create, each retrieve and each wait, a waited batch's create
 * and each retrieve and wait (named by the batch too, so that one workflow may wait on several), and a durable tool
 * loop's rounds (each completion, numbered from 1) and tool calls (each by the id the service gave it). A name
 * is its step's key in storage, so they never change between versions that may resume each other's workflows.
 *
 * @since 1.1.0
 * @category polling
 */
export const durableStepNames = {
  create: "studio.maestro.create",
  assistantRun: "studio.assistants.run",
  retrieve: (step: number) => `studio.maestro.retrieve.${step}`,
  wait: (step: number) => `studio.maestro.wait.${step}`,
  batchCreate: "studio.batches.create",
  batchRetrieve: (batchId: string, step: number) => `studio.batches.retrieve.${batchId}.${step}`,
  batchWait: (batchId: string, step: number) => `studio.batches.wait.${batchId}.${step}`,
  chatRound: (round: number) => `studio.chat.round.${round}`,
  toolCall: (callId: string) => `studio.chat.tool.${callId}`
} as const

/** The most credential paths a refusal names. */
const maxStoredCredentialPaths = 16

/**
 * The paths of the credentials (`headers` of a tool) in a request: a durable workflow stores its payload, so
 * such a request is refused rather than written to storage.
 *
 * @since 1.1.0
 * @category secrets
 */
export const storedCredentialPaths = (request: unknown): ReadonlyArray<string> => {
  const found: Array<string> = []
  forEachToolCredential(request, ({ path }) => {
    if (found.at(-1) === path) return
    if (found.length >= maxStoredCredentialPaths) return false
    found.push(path)
  })
  return found
}
