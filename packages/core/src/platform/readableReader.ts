/**
 * A Node `Readable` in paused mode read one network read at a time, with no stream, queue or timer per read:
 * a read takes everything that has arrived since the last one, and waits (one callback) only when nothing
 * has. Its idle watch fails a waiting read from outside (`abort`, see `watchIdle`), and after a stream's
 * last event what follows is read within bounds (`finish`), the rest in the background. Each line's
 * `studio-effect/undici` reads its bodies through it, the results of a read made as its line's effects.
 *
 * @since 1.1.0
 */
import type { Readable } from "node:stream"
import { longTimer, timerDelay } from "./timerDuration.js"

/**
 * What a read gives, as the reader's user makes it: the bytes of one or more network reads, the body's end,
 * or its failure.
 *
 * @since 1.1.0
 * @category reading
 */
export interface ReadResults<E, R> {
  readonly bytes: (reads: [Uint8Array, ...Array<Uint8Array>]) => R
  readonly end: R
  readonly failure: (error: E) => R
}

const ignore = () => {}

/**
 * The reads of `body`, their waiting, and the body's release.
 *
 * @since 1.1.0
 * @category reading
 */
export class ReadableReader<E, R> {
  /** When the read that waits began to wait (by `now`), or `undefined` when none waits. */
  waitingSince: number | undefined = undefined
  /** How reading ends once nothing is buffered: `null` at the body's end, the error on a failure. */
  private ending: { readonly error: E } | null | undefined = undefined
  private waiter: ((result: R) => void) | undefined = undefined
  private released = false

  constructor(
    private readonly body: Readable,
    private readonly results: ReadResults<E, R>,
    private readonly onError: (cause: unknown) => E,
    /** The clock a read's waiting is timed by, in milliseconds (`waitingSince`, the idle watch). */
    readonly now: () => number
  ) {
    body.on("readable", this.wake)
    body.on("end", this.onEnd)
    body.on("error", this.onFailure)
  }

  /** Whether no read will wait any more: the body ended, failed or was released. */
  get done(): boolean {
    return this.released || this.ending !== undefined
  }

  /** What a read gives now, or `undefined` when it has to wait (then `wait`). */
  take(): R | undefined {
    const ending = this.ending
    if (ending != null) return this.results.failure(ending.error)
    if (this.released) return this.results.end
    let bytes = this.body.read() as Uint8Array | null
    if (bytes === null) return ending === null ? this.results.end : undefined
    const reads: [Uint8Array, ...Array<Uint8Array>] = [bytes]
    // a read can refill the buffer at once (the socket's next bytes were waiting): they go in the same read
    while ((bytes = this.body.read() as Uint8Array | null) !== null) reads.push(bytes)
    return this.results.bytes(reads)
  }

  /** Waits for what the next read gives (after `take` gave `undefined`); `stopWaiting` gives up. */
  wait(resume: (result: R) => void): void {
    this.waiter = resume
    this.waitingSince = this.now()
  }

  readonly stopWaiting = (): void => {
    this.waiter = undefined
    this.waitingSince = undefined
  }

  private readonly wake = (): void => {
    const waiter = this.waiter
    if (waiter === undefined) return
    const result = this.take()
    if (result === undefined) return
    this.stopWaiting()
    waiter(result)
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
   * turn of the event loop (it usually follows at once), so that the connection can be reused; `onOver` is
   * called then. What is left is read in the background, at most `bytes` for at most `millis`, and the body
   * destroyed past either bound: the time bound is a timer of the platform (unref'd), as it outlives the
   * stream, which has ended. Gives what stops waiting (the body is then released), or `undefined` when it
   * was over at once.
   */
  finish(bytes: number, millis: number, onOver: () => void): (() => void) | undefined {
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
    if (drained()) {
      onOver()
      return undefined
    }
    const stop = () => {
      clearImmediate(turn)
      body.off("readable", onMore)
      body.off("end", onMore)
    }
    const onMore = () => {
      if (!drained()) return
      stop()
      onOver()
    }
    const turn = setImmediate(() => {
      stop()
      this.releaseInBackground(left, millis)
      onOver()
    })
    body.on("readable", onMore)
    body.on("end", onMore)
    return () => {
      stop()
      this.release()
    }
  }

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

/**
 * The idle watch of `reader` on the platform's clock: fails its waiting read with `onIdle()` once it has
 * waited `millis`. One timer, asleep until the moment the waiting read would have waited that long, re-armed
 * for what remains when it wakes early; a read costs it nothing. `cancel` stops it.
 *
 * @since 1.1.0
 * @category reading
 */
export const idleTimer = <E, R>(
  reader: ReadableReader<E, R>,
  millis: number,
  onIdle: () => E
): { readonly cancel: () => void } => {
  let timer: { readonly cancel: () => void } | undefined = undefined
  const arm = (delay: number) => {
    timer = longTimer(delay, () => {
      const next = idleLook(reader, millis, onIdle)
      if (next !== undefined) arm(next)
    })
  }
  arm(millis)
  return { cancel: () => timer?.cancel() }
}

/**
 * One look of an idle watch at `reader`, at its clock's time: a read that has waited `millis` or more is failed with
 * `onIdle()`. Gives how long to sleep before the next look, or `undefined` when the watch is over.
 *
 * @since 1.1.0
 * @category reading
 */
export const idleLook = <E, R>(
  reader: ReadableReader<E, R>,
  millis: number,
  onIdle: () => E
): number | undefined => {
  if (reader.done) return undefined
  const since = reader.waitingSince
  const waited = since === undefined ? 0 : reader.now() - since
  if (since !== undefined && waited >= millis) {
    reader.abort(onIdle())
    return undefined
  }
  return millis - waited
}
