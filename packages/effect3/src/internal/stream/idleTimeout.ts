/**
 * The idle timeout of a stream: it fails when no bytes arrive for a given time. Over a transport that gives
 * a `BodyReader`, a watch fails the waiting read from outside (`watchIdle`); over any other, the platform's
 * body stream is read by a reader fiber into a small queue (`withIdleTimeout`), since a read of that stream
 * cannot be ended from outside.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Take from "effect/Take"
import { idleLook, idleTimer, type ReadableReader } from "studio-effect-core/platform/readableReader"
import type { TimeoutError } from "../../StudioError.js"
import { liveClock } from "./liveClock.js"

/**
 * Fails a stream with `onIdle()` when no bytes arrive for `idle`. A reader fiber moves the reads into a
 * small queue, and one watchdog fiber per stream sleeps until the moment the stream would have been idle
 * that long: a read only moves that moment, so nothing is raced or forked per read. While the reader waits
 * for a slow consumer to take a read, the network is not being waited on, and the clock does not run.
 */
export const withIdleTimeout = <A, E>(
  self: Stream.Stream<A, E>,
  idle: Duration.Duration,
  onIdle: () => TimeoutError
): Stream.Stream<A, E | TimeoutError> =>
  Stream.unwrapScoped(Effect.gen(function*() {
    const clock = yield* Effect.clock
    const idleMillis = Duration.toMillis(idle)
    let lastRead = clock.unsafeCurrentTimeMillis()
    let handingOver = false
    let finished = false
    const reads = yield* Queue.bounded<Take.Take<A, E | TimeoutError>>(4)
    yield* self.pipe(
      Stream.runForEachChunk((chunk) => {
        handingOver = true
        return Effect.map(Queue.offer(reads, Take.chunk(chunk)), () => {
          handingOver = false
          lastRead = clock.unsafeCurrentTimeMillis()
        })
      }),
      Effect.matchCauseEffect({
        onFailure: (cause) => Queue.offer(reads, Take.failCause(cause)),
        onSuccess: () => Queue.offer(reads, Take.end)
      }),
      Effect.ensuring(Effect.sync(() => {
        finished = true
      })),
      Effect.forkScoped
    )
    const watchdog: Effect.Effect<void> = Effect.suspend(() => {
      const quietFor = clock.unsafeCurrentTimeMillis() - lastRead
      if (finished) return Effect.void
      return !handingOver && quietFor >= idleMillis
        ? Queue.offer(reads, Take.fail(onIdle()))
        : Effect.zipRight(Effect.sleep(Duration.millis(Math.max(idleMillis - quietFor, 1))), watchdog)
    })
    yield* Effect.forkScoped(watchdog)
    return Stream.flattenTake(Stream.fromQueue(reads))
  }))

/**
 * Fails `reader`'s waiting read with `onIdle()` once it has waited `idle` for the network, and releases the
 * body, for as long as the scope is open. One watch per stream, asleep until the moment the waiting read
 * would have waited that long; a read costs it nothing. A slow consumer does not make a stream idle: only a
 * read waiting counts. On the live clock the watch is a timer of the platform; under any other clock (the
 * `TestClock`) a fiber that sleeps on that clock. An infinite `idle` needs no watch. The reader's `now` is
 * the clock's time.
 */
export const watchIdle = <E, R>(
  reader: ReadableReader<E | TimeoutError, R>,
  idle: Duration.Duration,
  onIdle: () => TimeoutError
): Effect.Effect<void, never, Scope.Scope> =>
  Effect.clockWith((clock) => {
    if (!Duration.isFinite(idle)) return Effect.void
    const idleMillis = Duration.toMillis(idle)
    if (clock === liveClock) {
      // a timer of at most what the platform holds, re-armed for what remains
      return Effect.asVoid(Effect.acquireRelease(
        Effect.sync(() => idleTimer(reader, idleMillis, onIdle)),
        (timer) => Effect.sync(timer.cancel)
      ))
    }
    const watch: Effect.Effect<void> = Effect.suspend(() => {
      const next = idleLook(reader, idleMillis, onIdle)
      return next === undefined ? Effect.void : Effect.zipRight(Effect.sleep(Duration.millis(next)), watch)
    })
    return Effect.asVoid(Effect.forkScoped(watch))
  })
