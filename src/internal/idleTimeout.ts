/**
 * The idle timeout of a stream: it fails when no bytes arrive for a given time.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import * as Take from "effect/Take"
import type { TimeoutError } from "../StudioError.js"

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
