/**
 * Decoding a server-sent event stream into the `data` of each event, however the body is split into
 * reads: UTF-8 is decoded across read boundaries, lines may end in LF, CRLF or CR, `data:` may lack its
 * space, comments and other fields (`event:`, `id:`, `retry:`) are skipped, and `data: [DONE]` ends it.
 */
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { tooLargeReason } from "studio-effect-core/bytes/sizeLimits"
import {
  afterDoneBytes,
  defaultMaxEventSize,
  doneMarker,
  firstOutputsAlone,
  SseParser
} from "studio-effect-core/sse/SseParser"
import { DecodeError, TransportError } from "../../StudioError.js"
import { end, type Read } from "./read.js"

/** ... and for at most this long; then the body is released, whatever the server does. */
export const afterDoneWindow: Duration.Duration = Duration.millis(100)

/** Where a stream's events come from and what bounds them. */
export interface DecodeOptions {
  /** The operation's name, for the error of an event that is too large. */
  readonly operation?: string | undefined
  /** The largest event (its data lines and the line being read), in characters; 8 MiB when not given. */
  readonly maxEventSize?: number | undefined
}

/**
 * The `data` of each event of a body, up to `[DONE]`, each turned by `parse` into an output or an error, as
 * reads bound to the scope (`streamOf` makes them a stream). A body that ends before `[DONE]` fails with
 * `TransportError`: a stream cut short is never taken for a complete answer; an event larger than
 * `maxEventSize` fails with `DecodeError` and the body is released at once. One read is parsed in one step,
 * and its outputs go downstream as one chunk, except the stream's first two outputs (`firstOutputsAlone`),
 * which go alone so that the first token goes at once; outputs before a failed event are still delivered,
 * then the stream fails.
 *
 * At `[DONE]` the stream ends: at most `afterDoneBytes` more are read, for at most `afterDoneWindow`, so
 * that the body's end can arrive and the connection be reused; then the body is released, whether the
 * server ended it, holds it open, or keeps sending.
 */
export const decodeEventsWith = <A, E2>(
  method: string,
  url: string,
  /** The output of one event's `data`, or an `EventError` with the error that ends the stream. */
  parse: (data: string) => A | EventError<E2>,
  options: DecodeOptions = {}
) =>
<E, R>(
  bytes: Stream.Stream<Uint8Array, E, R>
): Effect.Effect<Read<A, E | E2 | TransportError | DecodeError, R>, never, Scope.Scope | R> =>
  Effect.map(Stream.toPull(bytes), (pull) => {
    const read: Read<Uint8Array, E, R> = Effect.catchAll(
      pull,
      (error) => error._tag === "None" ? Effect.succeed(end) : Effect.fail(error.value)
    )
    return eventsOf(method, url, parse, options, read, drainAfterDone(read))
  })

/** A bounded read after [DONE]: the body's end usually follows at once; nothing waits for more. */
const drainAfterDone = <E, R>(read: Read<Uint8Array, E, R>): Effect.Effect<void, never, R> =>
  Effect.suspend(() => {
    let left = afterDoneBytes
    const next: Effect.Effect<void, E, R> = Effect.flatMap(read, (reads) => {
      if (reads === end) return Effect.void
      for (const bytes of reads) left -= bytes.length
      return left > 0 ? next : Effect.void
    })
    return Effect.ignore(Effect.timeout(next, afterDoneWindow))
  })

/**
 * The events of the bytes `read` gives (each call the bytes of one or more network reads, or `end`), as
 * `decodeEventsWith` says; `afterDone` runs at `[DONE]`, before the end.
 */
export const eventsOf = <A, E2, E, R>(
  method: string,
  url: string,
  parse: (data: string) => A | EventError<E2>,
  options: DecodeOptions,
  read: Read<Uint8Array, E, R>,
  afterDone: Effect.Effect<void, never, R>
): Read<A, E | E2 | TransportError | DecodeError, R> => {
  type Failure = E | E2 | TransportError | DecodeError
  type Out = Read<A, Failure, R>
  const maxEventSize = options.maxEventSize ?? defaultMaxEventSize
  const parser = new SseParser(maxEventSize)
  /** After the outputs of the last read went downstream: what follows them (the end, or an error). */
  let next: Out | undefined = undefined

  /** The outputs, then `then` (the end, or an error). */
  const finish = (out: Array<A>, then: Out): Out => {
    if (out.length === 0) return then
    next = then
    return Effect.succeed(Chunk.unsafeFromArray(out))
  }
  const ended: Out = Effect.succeed(end)
  const tooLarge = () =>
    new DecodeError({
      operation: options.operation ?? "stream",
      reason: tooLargeReason("maxEventSize", maxEventSize)
    })
  /**
   * How many more outputs go downstream alone: the stream's first `firstOutputsAlone` do, whatever reads they
   * come in, so that the first token does not wait for the rest of a large read to be parsed; after them,
   * the outputs of a read go as one chunk.
   */
  let aloneLeft = firstOutputsAlone
  /** Events of a read of which only the first outputs went downstream, from `heldAt`. */
  let held: Array<string> | undefined = undefined
  let heldAt = 0
  /** Whether the parser overflowed after the held events. */
  let heldOverflow = false

  /**
   * Adds the output of one event to `out`; or gives what ends the stream there: `[DONE]` (after the
   * bounded read of the rest when the body is still open) or the event's error.
   */
  const add = (data: string, out: Array<A>, bodyOpen: boolean): Out | undefined => {
    if (data === doneMarker) return bodyOpen ? Effect.zipRight(afterDone, finish(out, ended)) : finish(out, ended)
    const result = parse(data)
    if (result instanceof EventError) return finish(out, Effect.fail(result.error))
    out.push(result)
    return undefined
  }
  /** The outputs of `events` from `from`, then what follows them: the end, an error, or the next read. */
  const emit = (events: Array<string>, from: number, overflow: boolean): Out => {
    const out: Array<A> = []
    for (let i = from; i < events.length; i++) {
      const over = add(events[i]!, out, true)
      if (over !== undefined) return over
      if (aloneLeft > 0 && (i + 1 < events.length || overflow)) {
        held = events
        heldAt = i + 1
        heldOverflow = overflow
        aloneLeft--
        return Effect.succeed(Chunk.unsafeFromArray(out))
      }
    }
    aloneLeft = Math.max(0, aloneLeft - out.length)
    if (overflow) return finish(out, Effect.fail(tooLarge()))
    return out.length === 0 ? pull : Effect.succeed(Chunk.unsafeFromArray(out))
  }
  const onEnd = (): Out => {
    const out: Array<A> = []
    for (const data of parser.end()) {
      const over = add(data, out, false)
      if (over !== undefined) return over
    }
    return finish(out, Effect.fail(new TransportError({ method, url, reason: "the event stream ended before [DONE]" })))
  }
  const onReads = (reads: Chunk.Chunk<Uint8Array> | typeof end): Out => {
    if (reads === end) return onEnd()
    let events: Array<string> = []
    for (const bytes of reads) {
      const more = parser.push(bytes)
      events = events.length === 0 ? more : events.concat(more)
      if (parser.tooLarge) break
    }
    return emit(events, 0, parser.tooLarge)
  }
  const pull: Out = Effect.suspend(() => {
    if (next !== undefined) return next
    if (held !== undefined) {
      const events = held
      held = undefined
      return emit(events, heldAt, heldOverflow)
    }
    return Effect.flatMap(read, onReads)
  })
  return pull
}

/** The error of an event that `parse` rejects (a class, so that no output is mistaken for it). */
export class EventError<E> {
  constructor(readonly error: E) {}
}
