/**
 * The events of a streamed answer, read with the core's SSE parser within its bounds: an event larger than
 * `maxEventSize` (an endless line included), or a stream of more than `maxResponseSize` bytes, ends the
 * stream with an `APICallError` that names the option; so does a body that ends before `[DONE]`.
 */
import { afterDoneBytes, doneMarker, SseParser } from "studio-effect-core/sse/SseParser"
import { type Answer, type Connection, type Request, tooLarge, transportFailure } from "./http.js"

/** The `data` of each event of an answer's body, one at a time, up to `[DONE]`. */
export class EventReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  private readonly parser: SseParser
  /** Events parsed but not given yet. */
  private queue: Array<string> = []
  private total = 0
  private done = false

  constructor(
    private readonly connection: Connection,
    private readonly request: Pick<Request, "operation" | "method" | "requestBodyValues" | "abortSignal">,
    private readonly answer: Answer
  ) {
    this.reader = answer.response.body?.getReader()
    this.parser = new SseParser(connection.maxEventSize)
  }

  /**
   * The next event's data, or `undefined` after `[DONE]`. Throws `APICallError` for a stream past its bounds
   * or cut short, and the signal's reason once aborted.
   */
  async next(): Promise<string | undefined> {
    while (true) {
      const data = this.queue.shift()
      if (data !== undefined) {
        if (data !== doneMarker) return data
        this.queue = []
        this.done = true
        await this.drain()
        return undefined
      }
      if (this.done) return undefined
      await this.read()
    }
  }

  /** Reads the next bytes into the queue. */
  private async read(): Promise<void> {
    const { answer, connection, parser, reader, request } = this
    if (reader === undefined) throw transportFailure(answer.url, request, "the stream ended before [DONE]", undefined)
    let chunk: ReadableStreamReadResult<Uint8Array>
    try {
      chunk = await reader.read()
    } catch (cause) {
      this.cancel()
      if (request.abortSignal?.aborted === true) throw request.abortSignal.reason
      throw transportFailure(
        answer.url,
        request,
        `the stream ended before [DONE] (${cause instanceof Error ? cause.message : String(cause)})`,
        cause
      )
    }
    if (request.abortSignal?.aborted === true) {
      this.cancel()
      throw request.abortSignal.reason
    }
    if (chunk.done) {
      this.queue = parser.end()
      if (!this.queue.includes(doneMarker)) {
        this.done = true
        throw parser.tooLarge
          ? tooLarge(answer, request, "maxEventSize", connection.maxEventSize)
          : transportFailure(answer.url, request, "the stream ended before [DONE]", undefined)
      }
      return
    }
    this.total += chunk.value.byteLength
    if (this.total > connection.maxResponseSize) {
      this.cancel()
      throw tooLarge(answer, request, "maxResponseSize", connection.maxResponseSize)
    }
    this.queue = parser.push(chunk.value)
    if (parser.tooLarge) {
      this.cancel()
      throw tooLarge(answer, request, "maxEventSize", connection.maxEventSize)
    }
  }

  /** Reads and drops what follows `[DONE]` (at most `afterDoneBytes`), so the connection can be reused. */
  private async drain(): Promise<void> {
    let read = 0
    try {
      while (this.reader !== undefined && read <= afterDoneBytes) {
        const { done, value } = await this.reader.read()
        if (done) return
        read += value.byteLength
      }
    } catch {
      // the answer is complete: what follows it does not matter
    }
    this.cancel()
  }

  /** Stops reading: the body is cancelled (a read in flight ends) and the connection closed. */
  cancel(): void {
    this.done = true
    this.queue = []
    this.reader?.cancel().catch(() => {})
  }
}
