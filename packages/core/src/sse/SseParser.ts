/**
 * The server-sent events wire format: an incremental parser giving the `data` of each event, however the
 * body is split into reads (UTF-8 decoded across read boundaries; lines ending in LF, CRLF or CR; `data:`
 * with or without its space; comments and other fields skipped), and the bounds a stream is read within.
 */
import { keepHiddenClass } from "../engine/hiddenClasses.js"

/** The payload that ends a stream. */
export const doneMarker = "[DONE]"

/**
 * Whether a text holds a CR. A regular expression, not `indexOf("\r")`: on the decoded text of a 64 KiB read
 * with multi-byte characters, V8's `indexOf` took about 0.7 ms where this takes next to nothing; the parser
 * alone went from 168 to 12 ms for a 100,000-token stream in 64 KiB reads.
 */
const carriageReturn = /\r/

/**
 * How many strings the parser keeps for a line or an event's data lines before joining them into one: an
 * event of 8 million empty `data:` lines would otherwise be held as 8 million array slots (8 bytes each for
 * one character of data, about 30 times the event's size); joined by batches, what is kept stays
 * proportional to the event's characters.
 */
export const joinBatch = 1024

/**
 * How many of a stream's first outputs go downstream one at a time, whatever reads they come in; after them,
 * the outputs of a read go as one array. A chat stream's first event carries only the role, and its text
 * begins with the second: both go alone, so that the first token is parsed and delivered before the rest of
 * a large read (some 650 events in 64 KiB) is parsed.
 */
export const firstOutputsAlone = 2

/**
 * An incremental SSE parser. `push` takes the next bytes and returns the `data` of every event they
 * complete; `end` flushes the last event of a body that did not end in a blank line.
 *
 * Linear in the body's size: a line that spans reads is kept as its pieces and joined once, when its line
 * break arrives. An event (its data lines, and the line being read) longer than `maxEventSize` characters
 * sets `tooLarge` and the parser stops: nothing more is kept. What it keeps of an event is proportional to
 * its characters: pieces (of a line, or data lines) are joined by batches of `joinBatch`.
 */
export class SseParser {
  private readonly decoder = new TextDecoder("utf-8")
  /** The pieces of the line received so far but not yet ended by a line break (none holds a line break). */
  private pending: Array<string> = []
  private pendingLength = 0
  /** Whether the previous read ended in CR, so a leading LF of the next one belongs to it. */
  private skipLeadingLf = false
  /**
   * Data lines of the event being read: how many, the first, and once there are several, the batches
   * already joined (each `joinBatch` lines) and the lines after them.
   */
  private dataLines = 0
  private firstData = ""
  private joinedData: Array<string> = []
  private moreData: Array<string> = []
  /** Characters of the data lines of the event being read (with the line feeds that will join them). */
  private dataLength = 0
  /** Set when an event grew past `maxEventSize`; the parser then ignores everything. */
  tooLarge = false

  constructor(readonly maxEventSize: number = Number.POSITIVE_INFINITY) {}

  /** How many strings the parser holds for the line and the event being read (bounded by their size). */
  get heldStrings(): number {
    return this.pending.length + this.joinedData.length + this.moreData.length + (this.dataLines === 1 ? 1 : 0)
  }

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
        if (this.pending.length === joinBatch) this.pending = [this.pending.join("")]
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
    this.joinedData = []
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
    else {
      this.moreData.push(value)
      if (this.moreData.length === joinBatch) {
        this.joinedData.push(this.moreData.join("\n"))
        this.moreData = []
      }
    }
    this.dataLines++
  }

  private dispatch(events: Array<string>): void {
    if (this.dataLines === 0) return
    events.push(this.dataLines === 1 ? this.firstData : this.joinedLines())
    this.dataLines = 0
    this.dataLength = 0
    this.firstData = ""
    this.joinedData = []
    this.moreData = []
  }

  /** The data lines of an event of several, joined with line feeds. */
  private joinedLines(): string {
    if (this.joinedData.length === 0) return this.moreData.join("\n")
    if (this.moreData.length > 0) this.joinedData.push(this.moreData.join("\n"))
    return this.joinedData.join("\n")
  }
}

/**
 * The largest event a stream may carry when no `maxEventSize` is given: 8 MiB, counted in characters of
 * its decoded text (for ASCII, bytes).
 */
export const defaultMaxEventSize = 8 * 1024 * 1024

// a parser for the life of the process keeps the hidden class of parsers, and the optimized code of `feed`
// and the methods it calls, from one stream to the next (see `engine/hiddenClasses.ts`)
keepHiddenClass(new SseParser(defaultMaxEventSize))

/** At most this many bytes are read after `[DONE]` (for the body's end, so the connection can be reused). */
export const afterDoneBytes = 4096
