/**
 * The reads of a streamed body, with the idle timeout: straight from the transport when it gives its body
 * as a `ReadableBody` (`studio-effect/undici`), with no `Stream` between and no fiber for a read whose bytes
 * are already there; from the pull of the response's `stream` on any other transport.
 */
import type { NonEmptyReadonlyArray } from "effect/Array"
import * as Cause from "effect/Cause"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as HttpClientError from "effect/http/HttpClientError"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import type * as Pull from "effect/Pull"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { TransportError } from "../../StudioError.js"
import { withIdleTimeout } from "../stream/idleTimeout.js"
import { readableBodyOf } from "../stream/readableBody.js"
import { transportError } from "./transportError.js"

/** A pull whose errors (not its end) are mapped by `f`. */
export const mapPullError = <A, E, E2>(pull: Pull.Pull<A, E>, f: (error: E) => E2): Pull.Pull<A, E2> =>
  Effect.mapError(pull, (error) => Cause.isDone(error) ? error : f(error))

/**
 * The reads of `response`'s body, each an array of the bytes of one or more network reads; a read that
 * waits longer than `timeout` fails with `onTimeout()`. The body is released with the current scope.
 */
export const bodyReads = <E2>(
  response: HttpClientResponse.HttpClientResponse,
  timeout: Duration.Duration,
  onTimeout: () => E2
): Effect.Effect<Pull.Pull<NonEmptyReadonlyArray<Uint8Array>, TransportError | E2>, never, Scope.Scope> =>
  Effect.suspend(() => {
    const body = readableBodyOf<HttpClientError.HttpClientError>(response)
    if (body === undefined) {
      return Effect.flatMap(
        Stream.toPull(response.stream),
        (read) => withIdleTimeout(mapPullError(read, transportError), timeout, onTimeout)
      )
    }
    return Effect.andThen(
      Effect.addFinalizer(() => Effect.sync(body.release)),
      withIdleTimeout(mapPullError(body.pull, transportError), timeout, onTimeout, () => body.ready)
    )
  })
