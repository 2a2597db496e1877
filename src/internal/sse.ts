/**
 * Decoding a server-sent event stream into the `data` of each event, however the body is split into
 * reads: UTF-8 is decoded across read boundaries, lines may end in LF, CRLF or CR, `data:` may lack its
 * space, comments and other fields (`event:`, `id:`, `retry:`) are skipped, and `data: [DONE]` ends it.
 */
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
  /** Text received but not yet ended by a line break. */
  private pending = ""
  /** Whether the previous read ended in CR, so a leading LF of the next one belongs to it. */
  private skipLeadingLf = false
  /** Data lines of the event being read. */
  private data: Array<string> = []
  private hasData = false

  push(bytes: Uint8Array): Array<string> {
    return this.feed(this.decoder.decode(bytes, { stream: true }))
  }

  end(): Array<string> {
    const events = this.feed(this.decoder.decode())
    if (this.pending !== "") {
      this.line(this.pending, events)
      this.pending = ""
    }
    this.dispatch(events)
    return events
  }

  private feed(text: string): Array<string> {
    const events: Array<string> = []
    if (text === "") return events
    let start = 0
    if (this.skipLeadingLf && text.charCodeAt(0) === 10) start = 1
    this.skipLeadingLf = false
    const length = text.length
    let buffer = this.pending
    for (let i = start; i < length; i++) {
      const code = text.charCodeAt(i)
      if (code !== 10 && code !== 13) continue
      this.line(buffer + text.slice(start, i), events)
      buffer = ""
      if (code === 13) {
        if (i + 1 < length) {
          if (text.charCodeAt(i + 1) === 10) i++
        } else {
          this.skipLeadingLf = true
        }
      }
      start = i + 1
    }
    this.pending = buffer + text.slice(start)
    return events
  }

  private line(line: string, events: Array<string>): void {
    if (line === "") {
      this.dispatch(events)
      return
    }
    if (line.charCodeAt(0) === 58) return // ":" starts a comment
    const colon = line.indexOf(":")
    const field = colon === -1 ? line : line.slice(0, colon)
    if (field !== "data") return
    let value = colon === -1 ? "" : line.slice(colon + 1)
    if (value.charCodeAt(0) === 32) value = value.slice(1)
    this.data.push(value)
    this.hasData = true
  }

  private dispatch(events: Array<string>): void {
    if (!this.hasData) return
    events.push(this.data.length === 1 ? this.data[0]! : this.data.join("\n"))
    this.data = []
    this.hasData = false
  }
}

/**
 * The `data` of each event of a body, up to `[DONE]`. A body that ends before `[DONE]` fails with
 * `TransportError`: a stream cut short is never taken for a complete answer.
 */
export const decodeEvents =
  (method: string, url: string) =>
  <E, R>(bytes: Stream.Stream<Uint8Array, E, R>): Stream.Stream<string, E | TransportError, R> =>
    Stream.suspend(() => {
      const parser = new SseParser()
      let done = false
      return bytes.pipe(
        Stream.mapConcat((chunk) => parser.push(chunk)),
        Stream.concat(Stream.suspend(() => Stream.fromIterable(parser.end()))),
        Stream.takeWhile((data) => {
          if (data === doneMarker) done = true
          return !done
        }),
        Stream.concat(Stream.suspend(() =>
          done
            ? Stream.empty
            : Stream.fail(new TransportError({ method, url, reason: "the event stream ended before [DONE]" }))
        ))
      )
    })
