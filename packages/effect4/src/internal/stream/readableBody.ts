/**
 * A Node `Readable` in paused mode as a pull: a read takes everything that has arrived since the last one,
 * and waits (one `Effect.callback`, no fiber, no queue) only when nothing has. Responses of
 * `studio-effect/undici` give their body through it: as their `stream`, and to the client directly
 * (`bodyReads`), so that its streams read the body with no `Stream` between and no fiber at all: the idle
 * watch fails a read that waits from outside (`abort`, see `watchIdle`), and what follows `[DONE]` is read
 * within its bounds in the background (`finish`).
 */
import type { NonEmptyReadonlyArray } from "effect/Array"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import type * as HttpClientError from "effect/http/HttpClientError"
import type * as Pull from "effect/Pull"
import type { Readable } from "node:stream"
import { timerDelay } from "studio-effect-core/platform/timerDuration"

const ignore = () => {}

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

/** The reads of `body`, and its release. */
export class ReadableBody<E> {
  /** How reading ends once nothing is buffered: `null` at the body's end, the error on a failure. */
  private ending: { readonly error: E } | null | undefined = undefined
  private resume: ((result: Pull.Pull<NonEmptyReadonlyArray<Uint8Array>, E>) => void) | undefined = undefined
  private released = false
  /** When the read that waits began to wait (by `now`), or `undefined` when none waits. */
  waitingSince: number | undefined = undefined

  constructor(
    private readonly body: Readable,
    private readonly onError: (cause: unknown) => E,
    private readonly now: () => number
  ) {
    body.on("readable", this.wake)
    body.on("end", this.onEnd)
    body.on("error", this.onFailure)
  }

  /** The bytes that arrived since the last read; `Cause.Done` at the body's end. */
  readonly pull: Pull.Pull<NonEmptyReadonlyArray<Uint8Array>, E> = Effect.callback((resume) => {
    const result = this.take()
    if (result !== undefined) return resume(result)
    this.resume = resume
    this.waitingSince = this.now()
    return Effect.sync(() => {
      this.resume = undefined
      this.waitingSince = undefined
    })
  })

  /** Whether no read will wait any more: the body ended, failed or was released. */
  get done(): boolean {
    return this.released || this.ending !== undefined
  }

  /** What a read gives now, or `undefined` when it has to wait. */
  private take(): Pull.Pull<NonEmptyReadonlyArray<Uint8Array>, E> | undefined {
    const ending = this.ending
    if (ending != null) return Effect.fail(ending.error)
    if (this.released) return Cause.done()
    let bytes = this.body.read() as Uint8Array | null
    if (bytes === null) return ending === null ? Cause.done() : undefined
    const reads: [Uint8Array, ...Array<Uint8Array>] = [bytes]
    // a read can refill the buffer at once (the socket's next bytes were waiting): they go in the same pull
    while ((bytes = this.body.read() as Uint8Array | null) !== null) reads.push(bytes)
    return Effect.succeed(reads)
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
    if (this.ending === undefined) this.ending = null
    this.wake()
  }

  private readonly onFailure = (cause: unknown): void => {
    if (this.ending == null) this.ending = { error: this.onError(cause) }
    this.wake()
  }

  /** Fails the read that waits, and every read after it, with `error`; the body is released. */
  readonly abort = (error: E): void => {
    if (this.released) return
    this.ending = { error }
    this.release()
    this.wake()
  }

  /**
   * Done with the body after its last event: what has arrived is read at once, and its end waited for one
   * turn of the event loop (it usually follows at once), so that the connection can be reused. What is
   * left then is read in the background, at most `bytes` for at most `millis`, and the body destroyed past
   * either bound: the time bound is a timer of the platform (unref'd), not a fiber, as it outlives the
   * stream, which has ended.
   */
  readonly finish = (bytes: number, millis: number): Effect.Effect<void> =>
    Effect.callback<void>((resume) => {
      const body = this.body
      let left = bytes
      /** Reads what is there; whether reading is over (the body ended, or `bytes` were read). */
      const drained = (): boolean => {
        while (!this.released) {
          if (this.ending !== undefined || body.readableEnded) {
            this.release()
            return true
          }
          const read = body.read() as Uint8Array | null
          if (read === null) return false
          left -= read.length
          if (left <= 0) this.release()
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
        this.releaseInBackground(left, millis)
        resume(Effect.void)
      })
      body.on("readable", onMore)
      body.on("end", onMore)
      return Effect.sync(() => {
        stop()
        this.release()
      })
    })

  /** Stops reading: the listeners of the reads are removed, and a late error is not an uncaught exception. */
  private detach(): boolean {
    if (this.released) return false
    this.released = true
    const body = this.body
    body.off("readable", this.wake)
    body.off("end", this.onEnd)
    body.off("error", this.onFailure)
    body.on("error", ignore)
    return true
  }

  /** Reads what is left of the body as it comes, at most `bytes` for at most `millis`, then destroys it. */
  private releaseInBackground(bytes: number, millis: number): void {
    if (!this.detach()) return
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

  /** Done with the body: it is destroyed unless it ended, which frees its connection. */
  readonly release = (): void => {
    if (!this.detach()) return
    const body = this.body
    if (!body.readableEnded && !body.destroyed) body.destroy()
  }
}
