/**
 * A Node `Readable` in paused mode as a pull, read by the core's `ReadableReader`: a read takes everything
 * that has arrived since the last one, and waits (one `Effect.callback`, no fiber, no queue) only when
 * nothing has. Responses of `studio-effect/undici` give their body through it: as their `stream`, and to the
 * client directly (`bodyReads`), so that its streams read the body with no `Stream` between and no fiber at
 * all: the idle watch fails a read that waits from outside (`watchIdle`), and what follows `[DONE]` is read
 * within its bounds in the background (`finish`).
 */
import type { NonEmptyReadonlyArray } from "effect/Array"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import type * as HttpClientError from "effect/http/HttpClientError"
import type * as Pull from "effect/Pull"
import type { Readable } from "node:stream"
import { ReadableReader, type ReadResults } from "studio-effect-core/platform/readableReader"

/** @internal */
export const ReadableBodyTypeId: unique symbol = Symbol.for("studio-effect/ReadableBody")

/**
 * A response that gives its body as a `ReadableBody` (once: the body is read by one reader), its errors
 * given to `onError`; `now` is the clock a read's wait is timed by.
 */
export interface HasReadableBody {
  readonly [ReadableBodyTypeId]: <E>(
    onError: (error: HttpClientError.HttpClientError) => E,
    now: () => number
  ) => ReadableBody<E>
}

/** The body of a response, when its transport gives it as a `ReadableBody`. */
export const readableBodyOf = <E>(
  response: object,
  onError: (error: HttpClientError.HttpClientError) => E,
  now: () => number
): ReadableBody<E> | undefined =>
  ReadableBodyTypeId in response ? (response as HasReadableBody)[ReadableBodyTypeId](onError, now) : undefined

/** What a read of a body gives, as a pull. */
type BodyRead<E> = Pull.Pull<NonEmptyReadonlyArray<Uint8Array>, E>

const asPulls: ReadResults<any, BodyRead<any>> = { bytes: Effect.succeed, end: Cause.done(), failure: Effect.fail }

/** The reads of a body as a pull, the end of its reading after `[DONE]`, and its release. */
export interface ReadableBody<E> {
  readonly reader: ReadableReader<E, BodyRead<E>>
  /** The bytes that arrived since the last read; `Cause.Done` at the body's end. */
  readonly pull: BodyRead<E>
  /** The reader's `finish`: the rest of the body read within `bytes` and `millis`, in the background. */
  readonly finish: (bytes: number, millis: number) => Effect.Effect<void>
  /** Done with the body: it is destroyed unless it ended, which frees its connection. */
  readonly release: () => void
}

/** The `ReadableBody` of `body`. */
export const makeReadableBody = <E>(
  body: Readable,
  onError: (cause: unknown) => E,
  now: () => number
): ReadableBody<E> => {
  const reader = new ReadableReader<E, BodyRead<E>>(body, asPulls, onError, now)
  return {
    reader,
    pull: Effect.callback((resume) => {
      const result = reader.take()
      if (result !== undefined) return resume(result)
      reader.wait(resume)
      return Effect.sync(reader.stopWaiting)
    }),
    finish: (bytes, millis) =>
      Effect.callback<void>((resume) => {
        const stop = reader.finish(bytes, millis, () => resume(Effect.void))
        return stop === undefined ? undefined : Effect.sync(stop)
      }),
    release: reader.release
  }
}
