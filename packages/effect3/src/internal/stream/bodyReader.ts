/**
 * A response body read in the reading fiber, one network read at a time, by the core's `ReadableReader`: a
 * read takes everything that has arrived since the last one, and waits (one `Effect.async`, no fiber, no
 * queue) only when nothing has. The idle timeout fails a waiting read from outside (`watchIdle`), which also
 * releases the body at once.
 *
 * Responses of `studio-effect/undici` offer one (`bodyReaderOf`); on any other transport the body is read
 * as the platform's `Stream`. The measured reason is in `bench/HISTORY.md` ("An SDK transport").
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import type { Readable } from "node:stream"
import { ReadableReader, type ReadResults } from "studio-effect-core/platform/readableReader"
import { end, type Read } from "./read.js"

/** @internal */
export const BodyReaderTypeId: unique symbol = Symbol.for("studio-effect/BodyReader")

/** A body read without a stream around it. */
export interface BodyReader<E> {
  readonly reader: ReadableReader<E, Read<Uint8Array, E>>
  /** The bytes that arrived since the last read, or `end` at the body's end. */
  readonly read: Read<Uint8Array, E>
  /**
   * At the stream's end (`[DONE]`): reads on, at most `bytes`, while the body's end arrives within this turn
   * of the event loop (as it does when the server ends the body with the stream), so that the connection is
   * free for the next request at once; otherwise reads the rest in the background within both bounds.
   */
  readonly finish: (bytes: number, millis: number) => Effect.Effect<void>
  /** Releases the body at once, unless it ended or was released. */
  readonly close: () => void
}

/** A response that can give its body as a `BodyReader`. */
export interface HasBodyReader {
  readonly [BodyReaderTypeId]: <E>(onError: (cause: unknown) => E, now: () => number) => BodyReader<E>
}

/** The body reader of a response, when its transport offers one. */
export const bodyReaderOf = (response: object): HasBodyReader[typeof BodyReaderTypeId] | undefined =>
  BodyReaderTypeId in response ? (response as HasBodyReader)[BodyReaderTypeId].bind(response) : undefined

const asReads: ReadResults<any, Read<Uint8Array, any>> = {
  bytes: (reads) => Effect.succeed(Chunk.unsafeFromArray(reads)),
  end: Effect.succeed(end),
  failure: Effect.fail
}

/** The `BodyReader` of a Node `Readable` in paused mode. */
export const makeBodyReader = <E>(
  body: Readable,
  onError: (cause: unknown) => E,
  now: () => number
): BodyReader<E> => {
  const reader = new ReadableReader<E, Read<Uint8Array, E>>(body, asReads, onError, now)
  return {
    reader,
    read: Effect.async((resume) => {
      const result = reader.take()
      if (result !== undefined) return resume(result)
      reader.wait(resume)
      return Effect.sync(reader.stopWaiting)
    }),
    finish: (bytes, millis) =>
      Effect.async<void>((resume) => {
        const stop = reader.finish(bytes, millis, () => resume(Effect.void))
        return stop === undefined ? undefined : Effect.sync(stop)
      }),
    close: reader.release
  }
}
