/**
 * The idle timeout of a streamed body: its clock runs only while a read waits on the network, so a slow
 * consumer never makes a stream idle. A body read as a `ReadableBody` (`studio-effect/undici`) is watched
 * from outside (`watchIdle`): its waiting read is failed and the body released, with no fiber per read; on
 * the live clock the watch is a timer of the platform, under any other clock (the `TestClock`) one fiber
 * per stream that sleeps on that clock.
 *
 * Over any other transport a read cannot be ended from outside (`withIdleTimeout`): each read starts at once
 * in a fiber of its own and, when the bytes are already there (the usual case on a busy stream), ends
 * before anything waits: the consumer takes its result directly. A read that has to wait is joined, and one
 * watchdog fiber per body (started by the first read that waits) sleeps until that read's deadline; when a
 * read has waited that long, the watchdog interrupts it and the read fails with the timeout's error, as
 * does every read after it.
 *
 * Measured reason (`npm run bench`, Node.js 24): `Stream.timeoutOrElse` runs the whole stream in a fiber of
 * its own and hands every read over through a queue; on the 100,000-token stream that cost 11% of the
 * tokens/s with one event per write and 26% with 16 KiB writes, and a fiber hop before the first token.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Latch from "effect/Latch"
import type * as Pull from "effect/Pull"
import type * as Scope from "effect/Scope"
import { idleLook, idleTimer, type ReadableReader } from "studio-effect-core/platform/readableReader"
import { liveClock } from "./liveClock.js"

/**
 * Fails `reader`'s waiting read with `onTimeout()` once it has waited `timeout`, and releases the body, for
 * as long as the scope is open. One watch per body, asleep until the moment the waiting read would have
 * waited that long: a read costs it nothing. The reader's `now` is `clock`'s time.
 */
export const watchIdle = <E, R>(
  reader: ReadableReader<E, R>,
  clock: Clock.Clock,
  timeout: Duration.Duration,
  onTimeout: () => E
): Effect.Effect<void, never, Scope.Scope> => {
  if (!Duration.isFinite(timeout)) return Effect.void
  const millis = Duration.toMillis(timeout)
  if (clock === liveClock) {
    return Effect.asVoid(Effect.acquireRelease(
      Effect.sync(() => idleTimer(reader, millis, onTimeout)),
      (timer) => Effect.sync(timer.cancel)
    ))
  }
  const watch: Effect.Effect<void> = Effect.suspend(() => {
    const next = idleLook(reader, millis, onTimeout)
    return next === undefined ? Effect.void : Effect.andThen(Effect.sleep(next), watch)
  })
  return Effect.asVoid(Effect.forkScoped(watch))
}

/**
 * `read` with the idle timeout: a read that waits longer than `timeout` is interrupted and fails with
 * `onTimeout()`, as does every read after it. The watchdog runs in the current scope.
 */
export const withIdleTimeout = <A, E, E2>(
  read: Pull.Pull<A, E>,
  timeout: Duration.Duration,
  onTimeout: () => E2
): Effect.Effect<Pull.Pull<A, E | E2>, never, Scope.Scope> =>
  Effect.gen(function*() {
    if (!Duration.isFinite(timeout)) return read
    const clock = yield* Clock.Clock
    const millis = Duration.toMillis(timeout)
    /** The read that waits, and when it times out. */
    let waiting: Fiber.Fiber<unknown, unknown> | undefined = undefined
    let deadline = 0
    let timedOut = false
    /** Open while a read waits. */
    const latch = Latch.makeUnsafe(false)
    const watchdog = Effect.gen(function*() {
      while (true) {
        yield* latch.await
        const reader = waiting
        if (reader === undefined) continue
        const left = deadline - clock.currentTimeMillisUnsafe()
        if (left > 0) {
          yield* Effect.sleep(left)
          continue
        }
        timedOut = true
        return yield* Fiber.interrupt(reader)
      }
    })
    /** The scope the watchdog runs in, once the first read waits. */
    let scope: Scope.Scope | undefined = yield* Effect.scope
    const ended = (): void => {
      waiting = undefined
      latch.closeUnsafe()
    }
    return Effect.suspend((): Pull.Pull<A, E | E2> => {
      if (timedOut) return Effect.fail(onTimeout())
      return Effect.flatMap(Effect.forkChild(read, { startImmediately: true }), (reader): Pull.Pull<A, E | E2> => {
        const done = reader.pollUnsafe()
        if (done !== undefined) return done
        waiting = reader
        deadline = clock.currentTimeMillisUnsafe() + millis
        latch.openUnsafe()
        const joined = Effect.matchCauseEffect(Fiber.join(reader), {
          onSuccess: (value) => {
            ended()
            return Effect.succeed(value)
          },
          onFailure: (cause): Pull.Pull<A, E | E2> => {
            ended()
            return timedOut ? Effect.fail(onTimeout()) : Effect.failCause(cause)
          }
        })
        if (scope === undefined) return joined
        // the watchdog starts with the first read that waits: a body whose reads never wait needs none
        const watchIn = scope
        scope = undefined
        return Effect.andThen(Effect.forkIn(watchdog, watchIn), joined)
      })
    })
  })
