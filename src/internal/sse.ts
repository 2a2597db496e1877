/**
 * Decoding a server-sent event stream into the `data` of each event, however the body is split into
 * reads: UTF-8 is decoded across read boundaries, lines may end in LF, CRLF or CR, `data:` may lack its
 * space, comments and other fields (`event:`, `id:`, `retry:`) are skipped, and `data: [DONE]` ends it.
 */
import * as Channel from "effect/Channel"
import * as Chunk from "effect/Chunk"
import * as Stream from "effect/Stream"
import { TransportError } from "../StudioError.js"

/** The payload that ends a stream. */
export const doneMarker = "[DONE]"

/**
 * An incremental SSE parser. `push` takes the next bytes and returns the `data` of every event they
 * complete; `end` flushes the last event of a body that did not end in a blank line.
 */
export class SseParser {
  private readonly decoder = new TextDecoder("utf-8")
  /** Text received but not yet ended by a line break (it holds no line break). */
  private pending = ""
  /** Whether the previous read ended in CR, so a leading LF of the next one belongs to it. */
  private skipLeadingLf = false
  /** Data lines of the event being read: how many, the first, and all of them once there are several. */
  private dataLines = 0
  private firstData = ""
  private moreData: Array<string> = []

  push(bytes: Uint8Array): Array<string> {
    return this.feed(this.decoder.decode(bytes, { stream: true }))
  }

  end(): Array<string> {
    const events = this.feed(this.decoder.decode())
    if (this.pending !== "") {
      this.line(this.pending, 0, this.pending.length, events)
      this.pending = ""
    }
    this.dispatch(events)
    return events
  }

  private feed(text: string): Array<string> {
    const events: Array<string> = []
    if (text === "") return events
    const pendingLength = this.pending.length
    const buffer = pendingLength === 0 ? text : this.pending + text
    const length = buffer.length
    let start = 0
    if (this.skipLeadingLf) {
      this.skipLeadingLf = false
      if (buffer.charCodeAt(0) === 10) start = 1
    }
    // `pending` holds no line break, so the search for the next one starts after it
    let searchFrom = Math.max(start, pendingLength)
    const lfOnly = text.indexOf("\r") === -1
    while (searchFrom < length) {
      let end: number
      if (lfOnly) {
        end = buffer.indexOf("\n", searchFrom)
        if (end === -1) break
      } else {
        end = searchFrom
        while (end < length) {
          const code = buffer.charCodeAt(end)
          if (code === 10 || code === 13) break
          end++
        }
        if (end === length) break
      }
      this.line(buffer, start, end, events)
      if (buffer.charCodeAt(end) === 13) {
        if (end + 1 < length) {
          if (buffer.charCodeAt(end + 1) === 10) end++
        } else {
          this.skipLeadingLf = true
        }
      }
      start = searchFrom = end + 1
    }
    this.pending = start === 0 ? buffer : start >= length ? "" : buffer.slice(start)
    return events
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
      this.data(text.slice(value, end))
    } else if (end - start === 4 && text.startsWith("data", start)) {
      this.data("")
    }
    // any other field (`event:`, `id:`, `retry:`, unknown ones) is skipped
  }

  private data(value: string): void {
    if (this.dataLines === 0) this.firstData = value
    else if (this.dataLines === 1) this.moreData = [this.firstData, value]
    else this.moreData.push(value)
    this.dataLines++
  }

  private dispatch(events: Array<string>): void {
    if (this.dataLines === 0) return
    events.push(this.dataLines === 1 ? this.firstData : this.moreData.join("\n"))
    this.dataLines = 0
    this.firstData = ""
    this.moreData = []
  }
}

/**
 * The `data` of each event of a body, up to `[DONE]`, each turned by `parse` into an output or an error. A
 * body that ends before `[DONE]` fails with `TransportError`: a stream cut short is never taken for a
 * complete answer. One read is parsed in one step, and its outputs go downstream as one chunk; outputs
 * before a failed event are still delivered, then the stream fails. Events after `[DONE]` are ignored.
 */
export const decodeEventsWith = <A, E2>(
  method: string,
  url: string,
  /** The output of one event's `data`, or an `EventError` with the error that ends the stream. */
  parse: (data: string) => A | EventError<E2>
) =>
<E, R>(bytes: Stream.Stream<Uint8Array, E, R>): Stream.Stream<A, E | E2 | TransportError, R> =>
  Stream.suspend(() => {
    const parser = new SseParser()
    /** Parses the events of one read: the outputs, and whether the stream is over or failed. */
    const step = (events: Array<string>, out: Array<A>): { done: boolean; error: E2 | undefined } => {
      for (let i = 0; i < events.length; i++) {
        const data = events[i]!
        if (data === doneMarker) return { done: true, error: undefined }
        const result = parse(data)
        if (result instanceof EventError) return { done: false, error: result.error }
        out.push(result)
      }
      return { done: false, error: undefined }
    }
    type Reader = Channel.Channel<Chunk.Chunk<A>, Chunk.Chunk<Uint8Array>, E | E2 | TransportError, E, void, unknown, R>
    const emit = (out: Array<A>, then: Reader): Reader =>
      out.length === 0 ? then : Channel.zipRight(Channel.write(Chunk.unsafeFromArray(out)), then)
    // After [DONE], the rest of the body is read and dropped: stopping early would abort the response and
    // lose its keep-alive connection. A failure of the body after [DONE] does not fail the stream.
    const drain: Reader = Channel.readWithCause({
      onInput: () => drain,
      onFailure: () => Channel.void,
      onDone: () => Channel.void
    })
    const reader: Reader = Channel.readWithCause({
      onInput: (input: Chunk.Chunk<Uint8Array>) => {
        const out: Array<A> = []
        for (const bytes of input) {
          const { done, error } = step(parser.push(bytes), out)
          if (error !== undefined) return emit(out, Channel.fail(error))
          if (done) return emit(out, drain)
        }
        return emit(out, reader)
      },
      onFailure: (cause) => Channel.failCause(cause),
      onDone: () => {
        const out: Array<A> = []
        const { done, error } = step(parser.end(), out)
        if (error !== undefined) return emit(out, Channel.fail(error))
        return emit(
          out,
          done ? Channel.void : Channel.fail(
            new TransportError({ method, url, reason: "the event stream ended before [DONE]" })
          )
        )
      }
    })
    return Stream.fromChannel(Channel.pipeTo(Stream.toChannel(bytes), reader))
  })

/** The error of an event that `parse` rejects (a class, so that no output is mistaken for it). */
export class EventError<E> {
  constructor(readonly error: E) {}
}

const identity = (data: string): string => data

/**
 * The `data` of each event of a body, up to `[DONE]`. A body that ends before `[DONE]` fails with
 * `TransportError`: a stream cut short is never taken for a complete answer.
 */
export const decodeEvents = (method: string, url: string) => decodeEventsWith(method, url, identity)
