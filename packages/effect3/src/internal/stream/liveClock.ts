/**
 * The clock effects run with unless a test provides another (the `TestClock`). On it, the client's
 * timeouts over `studio-effect/undici` are timers of the platform rather than fibers that sleep on the
 * clock: the attempt timeout (`attemptTimeout.ts`) and a stream's idle watch (`idleTimeout.ts`). Under any
 * other clock they stay fibers, so that tests drive them with the clock.
 */
import * as Effect from "effect/Effect"

/** The default clock. */
export const liveClock = Effect.runSync(Effect.clock)
