/**
 * Decoding a server-sent event stream into the `data` of each event, however the body is split into
 * reads: UTF-8 is decoded across read boundaries, lines may end in LF, CRLF or CR, `data:` may lack its
 * space, comments and other fields (`event:`, `id:`, `retry:`) are skipped, and `data: [DONE]` ends it.
 */
import type { NonEmptyReadonlyArray } from "effect/Array"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Pull from "effect/Pull"
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

/** ... and for at most this long; then the body is released, whatever the server does. */
export const afterDoneWindow: Duration.Duration = Duration.millis(100)

/** Where a stream's events come from and what bounds them. */
export interface DecodeOptions {
  /** The operation's name, for the error of an event that is too large. */
  readonly operation?: string | undefined
  /** The largest event (its data lines and the line being read), in characters; 8 MiB when not given. */
  readonly maxEventSize?: number | undefined
}

/** The bytes of one or more network reads of a body; `Cause.Done` at its end. */
export type BodyPull<E> = Pull.Pull<NonEmptyReadonlyArray<Uint8Array>, E>

/**
 * The `data` of each event of a body, up to `[DONE]`, each turned by `parse` into an output or an error. A
 * body that ends before `[DONE]` fails with `TransportError`: a stream cut short is never taken for a
 * complete answer; an event larger than `maxEventSize` fails with `DecodeError` and the body is released at
 * once. The body is pulled as the events are: one read is parsed in one step, and its outputs go downstream
 * as one array, except the stream's first two outputs (`firstOutputsAlone`), which go alone so that the
 * first token goes at once; outputs before a failed event are still delivered, then the stream fails.
 *
 * At `[DONE]` the stream ends: at most `afterDoneBytes` more are read, for at most `afterDoneWindow`, so
 * that the body's end can arrive and the connection be reused; then the body is released, whether the
 * server ended it, holds it open, or keeps sending.
 */
export const decodeEvents = <A, E2>(
  method: string,
  url: string,
  /** The output of one event's `data`, or an `EventError` with the error that ends the stream. */
  parse: (data: string) => A | EventError<E2>,
  options: DecodeOptions = {}
) =>
<E, R>(bytes: Stream.Stream<Uint8Array, E, R>): Stream.Stream<A, E | E2 | TransportError | DecodeError, R> =>
  Stream.transformPull(
    bytes,
    (read) => Effect.succeed(eventsOf(method, url, parse, options, read, drainAfterDone(read)))
  )

/**
 * A bounded read after [DONE] (at most `afterDoneBytes`, for at most `afterDoneWindow`): the body's end
 * usually follows at once; nothing waits for more. The read starts at once, and when the end is already
 * there it is over before any timer is set.
 */
export const drainAfterDone = <E>(read: BodyPull<E>): Effect.Effect<void> =>
  Effect.suspend(() => {
    let left = afterDoneBytes
    const next: Effect.Effect<void, E | Cause.Done> = Effect.flatMap(read, (reads) => {
      for (const bytes of reads) left -= bytes.length
      return left > 0 ? next : Effect.void
    })
    return Effect.flatMap(Effect.forkChild(next, { startImmediately: true }), (reading) =>
      reading.pollUnsafe() !== undefined ? Effect.void : Effect.timeoutOrElse(Effect.ignore(Fiber.join(reading)), {
        duration: afterDoneWindow,
        orElse: () =>
          Fiber.interrupt(reading)
      }))
  })

/**
 * The events of the bytes `read` gives, as `decodeEvents` says, pulled as the events are; `afterDone` is
 * the bounded read of what follows `[DONE]` while the body is still open.
 */
export const eventsOf = <A, E2, E>(
  method: string,
  url: string,
  parse: (data: string) => A | EventError<E2>,
  options: DecodeOptions,
  read: BodyPull<E>,
  afterDone: Effect.Effect<void>
): Pull.Pull<NonEmptyReadonlyArray<A>, E | E2 | TransportError | DecodeError> => {
  type Out = Pull.Pull<NonEmptyReadonlyArray<A>, E | E2 | TransportError | DecodeError>
  const maxEventSize = options.maxEventSize ?? defaultMaxEventSize
  const parser = new SseParser(maxEventSize)
  /** After the outputs of the last read went downstream: what follows them (the end, or an error). */
  let next: Out | undefined = undefined

  const emitted = (out: Array<A>): Out => Effect.succeed(out as unknown as NonEmptyReadonlyArray<A>)
  /** The outputs, then `then` (the end, or an error). */
  const finish = (out: Array<A>, then: Out): Out => {
    if (out.length === 0) return then
    next = then
    return emitted(out)
  }
  const ended: Out = Cause.done()
  const tooLarge = () =>
    new DecodeError({
      operation: options.operation ?? "stream",
      reason: tooLargeReason("maxEventSize", maxEventSize)
    })
  /**
   * How many more outputs go downstream alone: the stream's first `firstOutputsAlone` do, whatever reads they
   * come in, so that the first token does not wait for the rest of a large read to be parsed; after them,
   * the outputs of a read go as one array.
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
    if (data === doneMarker) return bodyOpen ? Effect.andThen(afterDone, finish(out, ended)) : finish(out, ended)
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
        return emitted(out)
      }
    }
    aloneLeft = Math.max(0, aloneLeft - out.length)
    if (overflow) return finish(out, Effect.fail(tooLarge()))
    return out.length === 0 ? pull : emitted(out)
  }
  const onEnd = (): Out => {
    const out: Array<A> = []
    for (const data of parser.end()) {
      const over = add(data, out, false)
      if (over !== undefined) return over
    }
    return finish(out, Effect.fail(new TransportError({ method, url, reason: "the event stream ended before [DONE]" })))
  }
  const onReads = (reads: NonEmptyReadonlyArray<Uint8Array>): Out => {
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
    return Pull.matchEffect(read, { onSuccess: onReads, onFailure: Effect.failCause, onDone: onEnd })
  })
  return pull
}

/** The error of an event that `parse` rejects (a class, so that no output is mistaken for it). */
export class EventError<E> {
  constructor(readonly error: E) {}
}
