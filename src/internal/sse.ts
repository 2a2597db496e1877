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
import { DecodeError, TransportError } from "../StudioError.js"
import { formatSize } from "./body.js"
import { end, type Read } from "./read.js"

/** The payload that ends a stream. */
export const doneMarker = "[DONE]"

/**
 * Whether a text holds a CR. A regular expression, not `indexOf("\r")`: on the decoded text of a 64 KiB read
 * with multi-byte characters, V8's `indexOf` took about 0.7 ms where this takes next to nothing; the parser
 * alone went from 168 to 12 ms for a 100,000-token stream in 64 KiB reads.
 */
const carriageReturn = /\r/

/**
 * An incremental SSE parser. `push` takes the next bytes and returns the `data` of every event they
 * complete; `end` flushes the last event of a body that did not end in a blank line.
 *
 * Linear in the body's size: a line that spans reads is kept as its pieces and joined once, when its line
 * break arrives. An event (its data lines, and the line being read) longer than `maxEventSize` characters
 * sets `tooLarge` and the parser stops: nothing more is kept.
 */
export class SseParser {
  private readonly decoder = new TextDecoder("utf-8")
  /** The pieces of the line received so far but not yet ended by a line break (none holds a line break). */
  private pending: Array<string> = []
  private pendingLength = 0
  /** Whether the previous read ended in CR, so a leading LF of the next one belongs to it. */
  private skipLeadingLf = false
  /** Data lines of the event being read: how many, the first, and all of them once there are several. */
  private dataLines = 0
  private firstData = ""
  private moreData: Array<string> = []
  /** Characters of the data lines of the event being read (with the line feeds that will join them). */
  private dataLength = 0
  /** Set when an event grew past `maxEventSize`; the parser then ignores everything. */
  tooLarge = false

  constructor(readonly maxEventSize: number = Number.POSITIVE_INFINITY) {}

  push(bytes: Uint8Array): Array<string> {
    if (this.tooLarge) return []
    return this.feed(this.decoder.decode(bytes, { stream: true }))
  }

  end(): Array<string> {
    if (this.tooLarge) return []
    const events = this.feed(this.decoder.decode())
    if (this.pendingLength > 0 && !this.tooLarge) {
      const line = this.takePending("")
      this.line(line, 0, line.length, events)
    }
    if (!this.tooLarge) this.dispatch(events)
    return events
  }

  private takePending(last: string): string {
    this.pending.push(last)
    const line = this.pending.length === 2 ? this.pending[0]! + last : this.pending.join("")
    this.pending = []
    this.pendingLength = 0
    return line
  }

  private feed(text: string): Array<string> {
    const events: Array<string> = []
    const length = text.length
    if (length === 0) return events
    let start = 0
    if (this.skipLeadingLf) {
      this.skipLeadingLf = false
      if (text.charCodeAt(0) === 10) start = 1
    }
    const lfOnly = !carriageReturn.test(text)
    while (start < length) {
      let end: number
      if (lfOnly) {
        end = text.indexOf("\n", start)
        if (end === -1) end = length
      } else {
        end = start
        while (end < length) {
          const code = text.charCodeAt(end)
          if (code === 10 || code === 13) break
          end++
        }
      }
      if (end === length) {
        // no line break: keep the rest as a piece of the pending line
        this.pendingLength += length - start
        if (this.pendingLength + this.dataLength > this.maxEventSize) {
          this.overflow()
          return events
        }
        this.pending.push(start === 0 ? text : text.slice(start))
        return events
      }
      if (this.pendingLength > 0) {
        const line = this.takePending(text.slice(start, end))
        this.line(line, 0, line.length, events)
      } else {
        this.line(text, start, end, events)
      }
      if (this.tooLarge) return events
      if (text.charCodeAt(end) === 13) {
        if (end + 1 < length) {
          if (text.charCodeAt(end + 1) === 10) end++
        } else {
          this.skipLeadingLf = true
        }
      }
      start = end + 1
    }
    return events
  }

  private overflow(): void {
    this.tooLarge = true
    this.pending = []
    this.pendingLength = 0
    this.firstData = ""
    this.moreData = []
  }

  /** The line `text[start, end)`. */
  private line(text: string, start: number, end: number, events: Array<string>): void {
    if (start === end) {
      this.dispatch(events)
      return
    }
    const first = text.charCodeAt(start)
    if (first === 58) return // ":" starts a comment
    if (
      first === 100 && end - start >= 5 && text.charCodeAt(start + 1) === 97 && text.charCodeAt(start + 2) === 116 &&
      text.charCodeAt(start + 3) === 97 && text.charCodeAt(start + 4) === 58
    ) {
      // "data:" and its value, without the one space that may follow the colon
      const value = start + 5 < end && text.charCodeAt(start + 5) === 32 ? start + 6 : start + 5
      this.data(text, value, end)
    } else if (end - start === 4 && text.startsWith("data", start)) {
      this.data(text, end, end)
    }
    // any other field (`event:`, `id:`, `retry:`, unknown ones) is skipped
  }

  private data(text: string, start: number, end: number): void {
    this.dataLength += end - start + (this.dataLines === 0 ? 0 : 1)
    if (this.dataLength > this.maxEventSize) {
      this.overflow()
      return
    }
    const value = text.slice(start, end)
    if (this.dataLines === 0) this.firstData = value
    else if (this.dataLines === 1) this.moreData = [this.firstData, value]
    else this.moreData.push(value)
    this.dataLines++
  }

  private dispatch(events: Array<string>): void {
    if (this.dataLines === 0) return
    events.push(this.dataLines === 1 ? this.firstData : this.moreData.join("\n"))
    this.dataLines = 0
    this.dataLength = 0
    this.firstData = ""
    this.moreData = []
  }
}

/**
 * The largest event a stream may carry when no `maxEventSize` is given: 8 MiB, counted in characters of
 * its decoded text (for ASCII, bytes).
 */
export const defaultMaxEventSize = 8 * 1024 * 1024

/** At most this many bytes are read after `[DONE]` (for the body's end, so the connection can be reused). */
export const afterDoneBytes = 4096

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
 * and its outputs go downstream as one chunk, except the first read's, which go in chunks of 1, 2, 4, ...
 * outputs so that the first tokens go at once; outputs before a failed event are still delivered, then the
 * stream fails.
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
      reason: `an event is larger than ${formatSize(maxEventSize)} (maxEventSize): raise maxEventSize if it is ` +
        "expected, or check what answers at this address"
    })
  /**
   * The most outputs a chunk may carry while the first read is being handed over: 1, then 2, 4, ... (a slow
   * start), so that the first tokens do not wait for the rest of a large first read; unbounded once the
   * first read is through, when each read goes downstream as one chunk.
   */
  let limit = 1
  /** Events of a read of which only the first outputs went downstream, from `heldAt`. */
  let held: Array<string> | undefined = undefined
  let heldAt = 0
  /** Whether the parser overflowed after the held events. */
  let heldOverflow = false

  /** The outputs of `events` from `from`, then what follows them: the end, an error, or the next read. */
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
  const emit = (events: Array<string>, from: number, overflow: boolean): Out => {
    const out: Array<A> = []
    for (let i = from; i < events.length; i++) {
      const over = add(events[i]!, out, true)
      if (over !== undefined) return over
      if (out.length === limit && (i + 1 < events.length || overflow)) {
        held = events
        heldAt = i + 1
        heldOverflow = overflow
        limit *= 2
        return Effect.succeed(Chunk.unsafeFromArray(out))
      }
    }
    limit = Number.POSITIVE_INFINITY
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
