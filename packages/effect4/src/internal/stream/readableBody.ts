/**
 * A Node `Readable` in paused mode as a pull: a read takes everything that has arrived since the last one,
 * and waits (one `Effect.callback`, no fiber, no queue) only when nothing has. Responses of
 * `studio-effect/undici` give their body through it: as their `stream`, and to the client directly
 * (`bodyReads`), so that its streams read the body with no `Stream` between and its idle watch needs no
 * fiber for a read whose bytes are already there (`ready`).
 */
import type { NonEmptyReadonlyArray } from "effect/Array"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import type * as Pull from "effect/Pull"
import type { Readable } from "node:stream"

const ignore = () => {}

/** @internal */
export const ReadableBodyTypeId: unique symbol = Symbol.for("studio-effect/ReadableBody")

/** A response that gives its body as a `ReadableBody` (once: the body is read by one reader). */
export interface HasReadableBody<E> {
  readonly [ReadableBodyTypeId]: () => ReadableBody<E>
}

/** The body of a response, when its transport gives it as a `ReadableBody`. */
export const readableBodyOf = <E>(response: object): ReadableBody<E> | undefined =>
  ReadableBodyTypeId in response ? (response as HasReadableBody<E>)[ReadableBodyTypeId]() : undefined

/** The reads of `body`, and its release. */
export class ReadableBody<E> {
  /** How reading ends once nothing is buffered: `null` at the body's end, the error on a failure. */
  private ending: { readonly error: E } | null | undefined = undefined
  private resume: ((result: Pull.Pull<NonEmptyReadonlyArray<Uint8Array>, E>) => void) | undefined = undefined
  private released = false

  constructor(private readonly body: Readable, private readonly onError: (cause: unknown) => E) {
    body.on("readable", this.wake)
    body.on("end", this.onEnd)
    body.on("error", this.onFailure)
  }

  /** The bytes that arrived since the last read; `Cause.Done` at the body's end. */
  readonly pull: Pull.Pull<NonEmptyReadonlyArray<Uint8Array>, E> = Effect.callback((resume) => {
    const result = this.take()
    if (result !== undefined) return resume(result)
    this.resume = resume
    return Effect.sync(() => {
      this.resume = undefined
    })
  })

  /** Whether a read now ends at once: bytes are buffered, or the body ended, failed or was released. */
  get ready(): boolean {
    return this.released || this.ending !== undefined || this.body.readableLength > 0
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

  /** Done with the body: it is destroyed unless it ended, which frees its connection. */
  readonly release = (): void => {
    if (this.released) return
    this.released = true
    const body = this.body
    body.off("readable", this.wake)
    body.off("end", this.onEnd)
    body.off("error", this.onFailure)
    // a late error of a body no longer read is not an uncaught exception
    body.on("error", ignore)
    if (!body.readableEnded && !body.destroyed) body.destroy()
  }
}
