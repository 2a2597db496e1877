/**
 * The reads of a streamed body, with the idle timeout: straight from the transport when it gives its body
 * as a `ReadableBody` (`studio-effect/undici`), with no `Stream` between and no fiber; from the pull of the
 * response's `stream` on any other transport.
 */
import type { NonEmptyReadonlyArray } from "effect/Array"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import type * as Pull from "effect/Pull"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { afterDoneBytes } from "studio-effect-core/sse/SseParser"
import type { TransportError } from "../../StudioError.js"
import { watchIdle, withIdleTimeout } from "../stream/idleTimeout.js"
import { readableBodyOf } from "../stream/readableBody.js"
import { afterDoneWindow, drainAfterDone } from "../stream/sse.js"
import { transportError } from "./transportError.js"

/** A pull whose errors (not its end) are mapped by `f`. */
export const mapPullError = <A, E, E2>(pull: Pull.Pull<A, E>, f: (error: E) => E2): Pull.Pull<A, E2> =>
  Effect.mapError(pull, (error) => Cause.isDone(error) ? error : f(error))

/** The reads of a body, and how reading it ends after its last event. */
export interface BodyReads<E> {
  /** The bytes of one or more network reads; `Cause.Done` at the body's end. */
  readonly read: Pull.Pull<NonEmptyReadonlyArray<Uint8Array>, E>
  /**
   * Done with the body after `[DONE]`: at most `afterDoneBytes` more are read, for at most
   * `afterDoneWindow`, so that its end can arrive and the connection be reused; then it is released.
   */
  readonly afterDone: Effect.Effect<void>
}

/**
 * The reads of `response`'s body; a read that waits longer than `timeout` fails with `onTimeout()`. The
 * body is released with the current scope.
 */
export const bodyReads = <E2>(
  response: HttpClientResponse.HttpClientResponse,
  timeout: Duration.Duration,
  onTimeout: () => E2
): Effect.Effect<BodyReads<TransportError | E2>, never, Scope.Scope> =>
  Effect.clockWith((clock) => {
    const body = readableBodyOf<TransportError | E2>(response, transportError, () => clock.currentTimeMillisUnsafe())
    if (body === undefined) {
      return Effect.flatMap(
        Stream.toPull(response.stream),
        (read) =>
          Effect.map(withIdleTimeout(mapPullError(read, transportError), timeout, onTimeout), (read) => ({
            read,
            afterDone: drainAfterDone(read)
          }))
      )
    }
    return Effect.as(
      Effect.andThen(
        Effect.addFinalizer(() => Effect.sync(body.release)),
        watchIdle(body.reader, clock, timeout, onTimeout)
      ),
      { read: body.pull, afterDone: body.finish(afterDoneBytes, Duration.toMillis(afterDoneWindow)) }
    )
  })
