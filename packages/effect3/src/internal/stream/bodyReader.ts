/**
 * A response body read in the reading fiber, one network read at a time: a read takes everything that has
 * arrived since the last one, and waits (one `Effect.async`, no fiber, no queue) only when nothing has. The
 * idle timeout fails a waiting read from outside (`abort`), which also releases the body at once.
 *
 * Responses of `studio-effect/undici` offer one (`bodyReaderOf`); on any other transport the body is read
 * as the platform's `Stream`. The measured reason is in `bench/HISTORY.md` ("An SDK transport").
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Readable } from "node:stream"
import { timerDelay } from "studio-effect-core/platform/timerDuration"
import { end, type Read } from "./read.js"

/** @internal */
export const BodyReaderTypeId: unique symbol = Symbol.for("studio-effect/BodyReader")

/** A body read without a stream around it. */
export interface BodyReader<E> {
  /** The bytes that arrived since the last read, or `end` at the body's end. */
  readonly read: Read<Uint8Array, E>
  /** When the waiting read began to wait for the network (`now()`'s time), or `undefined` when none waits. */
  readonly waitingSince: number | undefined
  /** Whether reading is over (the body ended, failed, was aborted or released). */
  readonly done: boolean
  /** Fails the waiting read and every later one with `error`, and releases the body at once. */
  readonly abort: (error: E) => void
  /**
   * At the stream's end (`[DONE]`): reads on, at most `bytes`, while the body's end arrives within this turn
   * of the event loop (as it does when the server ends the body with the stream), so that the connection is
   * free for the next request at once; otherwise `release`s the rest to the background.
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

const ignore = () => {}

const atEnd = Effect.succeed(end)

/** A `BodyReader` over a Node `Readable` in paused mode. */
export class ReadableBodyReader<E> implements BodyReader<E> {
  waitingSince: number | undefined = undefined
  /** How reading ends once nothing is buffered: `None` at the body's end, `Some` on a failure. */
  private ending: Option.Option<E> | undefined = undefined
  private resume: ((result: Read<Uint8Array, E>) => void) | undefined = undefined
  private finished = false

  constructor(
    private readonly body: Readable,
    private readonly onError: (cause: unknown) => E,
    private readonly now: () => number
  ) {
    body.on("readable", this.wake)
    body.on("end", this.onEnd)
    body.on("error", this.onFailure)
  }

  get done(): boolean {
    return this.finished || this.ending !== undefined
  }

  readonly read: Read<Uint8Array, E> = Effect.async<Chunk.Chunk<Uint8Array> | typeof end, E>((resume) => {
    const result = this.take()
    if (result !== undefined) return resume(result)
    this.resume = resume
    this.waitingSince = this.now()
    return Effect.sync(() => {
      this.resume = undefined
      this.waitingSince = undefined
    })
  })

  /** What a read gives now, or `undefined` when it has to wait. */
  private take(): Read<Uint8Array, E> | undefined {
    const ending = this.ending
    if (ending !== undefined && ending._tag === "Some") return Effect.fail(ending.value)
    if (this.finished) return atEnd
    const bytes = this.body.read() as Uint8Array | null
    if (bytes !== null) return Effect.succeed(Chunk.of(bytes))
    return ending === undefined ? undefined : atEnd
  }

  private readonly wake = (): void => {
    const resume = this.resume
    if (resume === undefined) return
    const result = this.take()
    if (result === undefined) return
    this.resume = undefined
    this.waitingSince = undefined
    resume(result)
  }

  private readonly onEnd = (): void => {
    if (this.ending === undefined) this.ending = Option.none()
    this.wake()
  }

  private readonly onFailure = (cause: unknown): void => {
    if (this.ending === undefined || this.ending._tag === "None") this.ending = Option.some(this.onError(cause))
    this.wake()
  }

  private detach(): void {
    this.body.off("readable", this.wake)
    this.body.off("end", this.onEnd)
    this.body.off("error", this.onFailure)
    // a late error of a body no longer read is not an uncaught exception
    this.body.on("error", ignore)
  }

  readonly abort = (error: E): void => {
    if (this.finished) return
    this.ending = Option.some(error)
    const resume = this.resume
    this.close()
    if (resume !== undefined) {
      this.resume = undefined
      this.waitingSince = undefined
      resume(Effect.fail(error))
    }
  }

  /**
   * Done with the body: what is left of it is read in the background, at most `bytes` for at most `millis`,
   * so that its end can arrive and the connection be reused; past either bound it is destroyed. The time
   * bound is a timer of the platform (unref'd), not a fiber: it outlives the stream, which has ended.
   */
  private release(bytes: number, millis: number): void {
    if (this.finished) return
    this.finished = true
    this.detach()
    const body = this.body
    if (body.readableEnded || body.destroyed) return
    let left = bytes
    const delay = timerDelay(millis)
    const timer = delay === undefined ? undefined : setTimeout(() => body.destroy(), delay)
    timer?.unref()
    body.on("close", () => clearTimeout(timer))
    body.on("data", (read: Uint8Array) => {
      left -= read.length
      if (left <= 0) body.destroy()
    })
    body.resume()
  }

  readonly finish = (bytes: number, millis: number): Effect.Effect<void> =>
    Effect.async<void>((resume) => {
      const body = this.body
      let left = bytes
      /** Reads what is there; whether reading is over (the end came, or `bytes` were read). */
      const drained = (): boolean => {
        while (!this.finished) {
          if (this.ending !== undefined || body.readableEnded) {
            this.close()
            return true
          }
          const read = body.read() as Uint8Array | null
          if (read === null) return false
          left -= read.length
          if (left <= 0) this.close()
        }
        return true
      }
      if (drained()) return resume(Effect.void)
      const stop = () => {
        clearImmediate(turn)
        body.off("readable", onMore)
        body.off("end", onMore)
      }
      const onMore = () => {
        if (!drained()) return
        stop()
        resume(Effect.void)
      }
      const turn = setImmediate(() => {
        stop()
        this.release(left, millis)
        resume(Effect.void)
      })
      body.on("readable", onMore)
      body.on("end", onMore)
      return Effect.sync(() => {
        stop()
        this.close()
      })
    })

  readonly close = (): void => {
    if (this.finished) return
    this.finished = true
    this.detach()
    if (!this.body.readableEnded && !this.body.destroyed) this.body.destroy()
  }
}
