/**
 * The per-attempt timeout of a client's requests. Over a transport that can abort its requests
 * (`studio-effect/undici`, see `requestAbort.ts`) and on the live clock, a timer of the platform aborts the
 * request, with no fiber; under any other clock (the `TestClock`) and over other transports,
 * `Effect.timeoutFail`.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { longTimer } from "studio-effect-core/platform/timerDuration"
import { liveClock } from "../stream/liveClock.js"
import { isAbortable, RequestAbort, type RequestAbortSlot } from "./requestAbort.js"

/** The attempts of one client. */
export interface AttemptTimeout {
  /** `effect`, ended after `timeout` and failing then with `onTimeout()`. */
  readonly within: <A, E, E2>(
    effect: Effect.Effect<A, E>,
    timeout: Duration.Duration,
    onTimeout: () => E2
  ) => Effect.Effect<A, E | E2>
}

/** The attempt timeout of a client over `transport`. */
export const make = (transport: object): AttemptTimeout => {
  const abortable = isAbortable(transport)
  const within = <A, E, E2>(
    effect: Effect.Effect<A, E>,
    timeout: Duration.Duration,
    onTimeout: () => E2
  ): Effect.Effect<A, E | E2> =>
    Effect.clockWith((clock) => {
      if (!abortable || clock !== liveClock) {
        return Effect.timeoutFail(effect, { duration: timeout, onTimeout })
      }
      const slot: RequestAbortSlot = { abort: undefined }
      let timedOut = false
      // as long as the platform's timers can hold it (re-armed beyond 2^31 - 1 ms), none for infinity
      const timer = longTimer(Duration.toMillis(timeout), () => {
        timedOut = true
        slot.abort?.()
      })
      return effect.pipe(
        Effect.provideService(RequestAbort, slot),
        Effect.catchAll((error): Effect.Effect<never, E | E2> => Effect.fail(timedOut ? onTimeout() : error)),
        Effect.ensuring(Effect.sync(timer.cancel))
      )
    })
  return { within }
}
