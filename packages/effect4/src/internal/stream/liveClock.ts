/**
 * The clock effects run with unless a test provides another (the `TestClock`). On it, the attempt timeout
 * of a client over `studio-effect/undici` is a timer of the platform rather than a fiber that sleeps on the
 * clock (`attemptTimeout.ts`). Under any other clock it stays a fiber, so that tests drive it with the clock.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"

/** The default clock. */
export const liveClock: Clock.Clock = Effect.runSync(Clock.clockWith(Effect.succeed))
