/**
 * Orchestration ("Maestro") runs: `create` a run, `retrieve` a snapshot of it, and wait for it to finish
 * with `poll`, `watch` (every snapshot as a `Stream`) or `createAndPoll`.
 *
 * Polling retrieves the run at once, then again after each delay of a `Schedule` (by default growing from
 * 1 s by ×1.5, jittered, never more than 10 s apart), until the run is terminal or an overall deadline
 * (by default 10 minutes) passes. Both are options. Time is read from Effect's `Clock`, so `TestClock`
 * drives polling in tests.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { acceptRunRequest } from "studio-effect-core/validate/runRequest"
import { endpoints } from "studio-effect-core/wire/endpoints"
import { runFailureReason } from "studio-effect-core/wire/runs"
import * as Operation from "./internal/operation/operation.js"
import { spanOptions } from "./internal/operation/telemetry.js"
import { isTerminal, MaestroRun, RunRequest } from "./MaestroSchema.js"
import { StudioClient, type WithResponse } from "./StudioClient.js"
import { PollTimeout, type RequestError, RunFailed, type StudioError } from "./StudioError.js"

/**
 * The first delay between two retrieves of a polled run.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultPollInitialDelay: Duration.Duration = Duration.seconds(1)

/**
 * The longest delay between two retrieves of a polled run.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultPollMaxDelay: Duration.Duration = Duration.seconds(10)

/**
 * How long polling waits for a run to finish, from the start of polling, when no deadline is given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultPollDeadline: Duration.Duration = Duration.minutes(10)

/**
 * The delays between retrieves when no schedule is given: 1 s growing by ×1.5, each jittered to 80–120 %
 * and never more than 10 s (the growth is capped before the jitter, so delays at the cap still vary, within
 * 8–10 s). It never ends by itself; the deadline ends polling.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultPollSchedule: Schedule.Schedule<unknown, MaestroRun> = Schedule.exponential(
  defaultPollInitialDelay,
  1.5
).pipe(
  Schedule.modifyDelay((_, delay) => Duration.min(delay, defaultPollMaxDelay)),
  Schedule.jittered,
  Schedule.modifyDelay((_, delay) => Duration.min(delay, defaultPollMaxDelay))
)

/**
 * How to poll a run.
 *
 * @since 0.1.0
 * @category models
 */
export interface PollOptions {
  /**
   * The delays between retrieves, given each snapshot as input; the first retrieve is made at once. When
   * the schedule ends before the run is terminal, polling fails with `PollTimeout`.
   */
  readonly schedule?: Schedule.Schedule<unknown, MaestroRun> | undefined
  /**
   * How long to wait in all for a terminal status, from the start of polling; then `PollTimeout`, even in
   * the middle of a retrieve. `Duration.infinity` waits for as long as the schedule goes on.
   */
  readonly deadline?: Duration.DurationInput | undefined
}

const createOperation = Operation.json({
  endpoint: endpoints.maestroCreate,
  check: Operation.checkRequest(RunRequest, acceptRunRequest),
  body: (valid) => valid,
  response: MaestroRun
})

const retrieveOperation = Operation.json({
  endpoint: endpoints.maestroRetrieve,
  check: Operation.checkId("runId"),
  response: MaestroRun
})

/**
 * Creates a run. The request is checked against every rule of the interface first (input string or
 * alternating messages, at most 10 requirements of at most 128 words, tools, a single model, budget,
 * include, response language); a broken rule fails with `ValidationError` and nothing is sent.
 *
 * @since 0.1.0
 * @category operations
 */
export const create: (request: RunRequest) => Effect.Effect<MaestroRun, RequestError, StudioClient> = createOperation

/**
 * `create`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const createWithResponse: (
  request: RunRequest
) => Effect.Effect<WithResponse<MaestroRun>, RequestError, StudioClient> = createOperation.withResponse

/**
 * Retrieves the current snapshot of a run. An unknown id fails with `NotFound`.
 *
 * @since 0.1.0
 * @category operations
 */
export const retrieve: (runId: string) => Effect.Effect<MaestroRun, RequestError, StudioClient> = retrieveOperation

/**
 * `retrieve`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const retrieveWithResponse: (
  runId: string
) => Effect.Effect<WithResponse<MaestroRun>, RequestError, StudioClient> = retrieveOperation.withResponse

/** The reason a failed run gives, or a stand-in when the service gave none. */

/** One snapshot, followed by `RunFailed` when it is a failed run. */
const emitSnapshot = (run: MaestroRun): Stream.Stream<MaestroRun, RunFailed> =>
  run.status === "failed"
    ? Stream.concat(Stream.succeed(run), Stream.fail(new RunFailed({ run, reason: runFailureReason(run) })))
    : Stream.succeed(run)

const runIdOf = (run: string | MaestroRun): string => typeof run === "string" ? run : run.id

/**
 * Every snapshot of a run until it is terminal. Given an id, the run is retrieved at once; given a
 * snapshot (for example the answer of `create`), that snapshot is the first one and the first retrieve
 * comes after the schedule's first delay. Between retrieves the stream waits as the schedule says.
 *
 * The stream emits each snapshot and ends after the terminal one. A `failed` run is emitted, then the
 * stream fails with `RunFailed`; `completed` and `requires_action` end it. When the deadline passes or
 * the schedule ends first, it fails with `PollTimeout` carrying the last snapshot. A failed retrieve
 * (after the client's own retries) fails the stream with that error.
 *
 * @since 0.1.0
 * @category polling
 */
export const watch = (
  run: string | MaestroRun,
  options: PollOptions = {}
): Stream.Stream<MaestroRun, StudioError, StudioClient> => watchRun(run, options, undefined)

/** `watch`, with the request that created the run (when known), whose credentials its errors are scrubbed of. */
const watchRun = (
  run: string | MaestroRun,
  options: PollOptions,
  request: RunRequest | undefined
): Stream.Stream<MaestroRun, StudioError, StudioClient> => {
  const runId = runIdOf(run)
  const deadline = Duration.decode(options.deadline ?? defaultPollDeadline)
  return Stream.unwrap(Effect.gen(function*() {
    const driver = yield* Schedule.driver(options.schedule ?? defaultPollSchedule)
    const last = yield* Ref.make<MaestroRun | undefined>(typeof run === "string" ? undefined : run)
    const timeout = (lastRun: MaestroRun | undefined) =>
      new PollTimeout({ runId, ...(lastRun === undefined ? {} : { lastRun }) })

    const next = (previous: MaestroRun) =>
      driver.next(previous).pipe(
        Effect.catchAll(() => Effect.fail(timeout(previous))),
        Effect.zipRight(retrieve(runId)),
        Effect.tap((snapshot) => Ref.set(last, snapshot))
      )
    const first = retrieve(runId).pipe(Effect.tap((snapshot) => Ref.set(last, snapshot)))
    const step = (snapshot: MaestroRun): readonly [MaestroRun, Option.Option<MaestroRun | null>] => [
      snapshot,
      isTerminal(snapshot) ? Option.none() : Option.some(snapshot)
    ]
    /** From `null` (nothing retrieved yet) or the last snapshot, until a terminal one. */
    const loop = (start: MaestroRun | null): Stream.Stream<MaestroRun, StudioError, StudioClient> =>
      Stream.paginateEffect(start, (previous) => Effect.map(previous === null ? first : next(previous), step))

    const snapshots = (typeof run === "string"
      ? loop(null)
      : Stream.concat(Stream.succeed(run), isTerminal(run) ? Stream.empty : loop(run))).pipe(
        Stream.flatMap(emitSnapshot)
      )

    const client = yield* StudioClient
    // a failed run's message may quote what a tool server was sent: scrub the key and any credentials
    const redact = (error: StudioError) => client.redact(error, request)
    if (!Duration.isFinite(deadline)) return Stream.mapError(snapshots, redact)
    const passDeadline = Effect.sleep(deadline).pipe(
      Effect.zipRight(Ref.get(last)),
      Effect.flatMap((lastRun) => Effect.fail(timeout(lastRun)))
    )
    return Stream.mapError(Stream.interruptWhen(snapshots, passDeadline), redact)
  }))
}

/**
 * Waits for a run to be terminal, retrieving it as `watch` does, and returns the terminal snapshot: a
 * `completed` or `requires_action` run. A `failed` run fails with `RunFailed` (the run and its error
 * message); passing the deadline fails with `PollTimeout` (the last snapshot). Interrupting the fiber
 * stops polling at once, aborting a retrieve in flight.
 *
 * @since 0.1.0
 * @category polling
 */
export const poll = (
  run: string | MaestroRun,
  options: PollOptions = {}
): Effect.Effect<MaestroRun, StudioError, StudioClient> => pollRun(run, options, undefined)

const pollRun = (
  run: string | MaestroRun,
  options: PollOptions,
  request: RunRequest | undefined
): Effect.Effect<MaestroRun, StudioError, StudioClient> =>
  Stream.runLast(watchRun(run, options, request)).pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.dieMessage("polling ended without a snapshot"),
      onSome: Effect.succeed
    })),
    (polling) =>
      Effect.flatMap(StudioClient, (client) =>
        Effect.withSpan(
          polling,
          "studio.maestro.poll",
          // a run given as a snapshot carries the service's id: checked against the secrets first
          spanOptions(client.redactAttributes({ "studio.run.id": runIdOf(run) }, request))
        ))
  )

/**
 * Creates a run and polls it until it is terminal. The created run is the first snapshot: when it is
 * already terminal nothing more is sent, otherwise the first retrieve comes after the schedule's first
 * delay. The deadline counts from the creation.
 *
 * @since 0.1.0
 * @category operations
 */
export const createAndPoll = (
  request: RunRequest,
  options: PollOptions = {}
): Effect.Effect<MaestroRun, StudioError, StudioClient> =>
  Effect.flatMap(create(request), (run) => pollRun(run, options, request))
