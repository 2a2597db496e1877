/**
 * Driving virtual time while real sockets do their I/O: advance the `TestClock` in steps, letting the event
 * loop run between steps, until a condition holds. Bounded, so a broken expectation fails instead of hanging.
 */
import { dieMessage, Duration, type DurationInput, Effect, formatDuration, TestClock } from "@studio-effect/line"

/** Lets pending socket events run. */
export const ioTurn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

/** Advances the test clock by `step` until `condition` holds, at most `maxSteps` times. */
export const advanceUntil = (
  condition: () => boolean,
  step: DurationInput = "100 millis",
  maxSteps = 2_000
): Effect.Effect<void> =>
  Effect.gen(function*() {
    for (let i = 0; i < maxSteps; i++) {
      if (condition()) return
      yield* ioTurn
      if (condition()) return
      yield* TestClock.adjust(step)
    }
    return yield* dieMessage(`condition not reached after ${maxSteps} steps of ${formatDuration(step)}`)
  })

/** Waits (in real time, by event-loop turns) until `condition` holds, at most `maxTurns` turns. */
export const waitUntil = (condition: () => boolean, maxTurns = 10_000): Effect.Effect<void> =>
  Effect.gen(function*() {
    for (let i = 0; i < maxTurns; i++) {
      if (condition()) return
      yield* ioTurn
    }
    return yield* dieMessage(`condition not reached after ${maxTurns} event-loop turns`)
  })

/** Advances the test clock by `total` in steps of `step`, letting socket events run between steps. */
export const advanceBy = (total: DurationInput, step: DurationInput): Effect.Effect<void> =>
  Effect.gen(function*() {
    const steps = Math.ceil(Duration.toMillis(total) / Duration.toMillis(step))
    for (let i = 0; i < steps; i++) {
      yield* ioTurn
      yield* TestClock.adjust(step)
    }
    yield* ioTurn
  })
