/**
 * The reader of a paused Node `Readable` both lines' `studio-effect/undici` read bodies with: a read takes all
 * that has arrived or waits for it, the idle watch fails a read that waited too long, and after the last
 * event the body's end is read at once or the rest in the background, within its bounds.
 */
import { PassThrough } from "node:stream"
import { describe, expect, it } from "vitest"
import { idleLook, ReadableReader, type ReadResults } from "../src/platform/readableReader.js"

type Result = { readonly bytes: string } | "end" | { readonly error: string }

const results: ReadResults<string, Result> = {
  bytes: (reads) => ({ bytes: reads.map((read) => Buffer.from(read).toString()).join("|") }),
  end: "end",
  failure: (error) => ({ error })
}

const readerOf = (now: () => number = () => 0) => {
  const body = new PassThrough()
  const reader = new ReadableReader(body, results, (cause) => `failed: ${String(cause)}`, now)
  return { body, reader }
}

/** The result of the next read, waiting for it when it has to. */
const next = (reader: ReadableReader<string, Result>): Promise<Result> =>
  new Promise((resolve) => {
    const result = reader.take()
    if (result === undefined) reader.wait(resolve)
    else resolve(result)
  })

/** Counts the body's destruction before its end was read (what a reader that gives up on it does). */
const cutShort = (body: PassThrough) => {
  const count = { cuts: 0 }
  const destroy = body.destroy.bind(body)
  body.destroy = (error?: Error) => {
    if (!body.readableEnded) count.cuts++
    return destroy(error)
  }
  return count
}

/** One turn of the event loop. */
const turn = () => new Promise((resolve) => setImmediate(resolve))

describe("ReadableReader", () => {
  it("a read takes every write that has arrived; one with nothing there waits; then the end", async () => {
    const { body, reader } = readerOf()
    body.write("a")
    body.write("b")
    await turn()
    expect(reader.take()).toEqual({ bytes: "ab" })
    expect(reader.take()).toBeUndefined()
    const waiting = next(reader)
    body.write("c")
    expect(await waiting).toEqual({ bytes: "c" })
    body.end()
    expect(await next(reader)).toBe("end")
    expect(reader.done).toBe(true)
  })

  it("a failure of the body is the error of the waiting read and of every read after it", async () => {
    const { body, reader } = readerOf()
    const waiting = next(reader)
    body.destroy(new Error("reset"))
    expect(await waiting).toEqual({ error: "failed: Error: reset" })
    expect(reader.take()).toEqual({ error: "failed: Error: reset" })
  })

  it("the idle watch fails the read that waited its time, and releases the body; a read that did not, it waits for", async () => {
    let now = 0
    const { body, reader } = readerOf(() => now)
    expect(idleLook(reader, 1000, () => "idle")).toBe(1000)
    const waiting = next(reader)
    now = 400
    expect(idleLook(reader, 1000, () => "idle")).toBe(600)
    now = 1000
    expect(idleLook(reader, 1000, () => "idle")).toBeUndefined()
    expect(await waiting).toEqual({ error: "idle" })
    expect(reader.take()).toEqual({ error: "idle" })
    expect(body.destroyed).toBe(true)
    expect(idleLook(reader, 1000, () => "idle")).toBeUndefined()
  })

  it("finish: a body whose end is there is over at once, and read to its end (its connection is kept)", async () => {
    const { body, reader } = readerOf()
    const count = cutShort(body)
    body.end("data: [DONE]\n\n")
    await turn()
    reader.take()
    await turn()
    let over = false
    expect(reader.finish(4096, 100, () => (over = true))).toBeUndefined()
    expect(over).toBe(true)
    expect(body.readableEnded).toBe(true)
    expect(count.cuts).toBe(0)
  })

  it("finish: an end that comes within the turn is read, and the body not cut short", async () => {
    const { body, reader } = readerOf()
    const count = cutShort(body)
    const over = new Promise<void>((resolve) => reader.finish(4096, 100, resolve))
    body.end("\n")
    await over
    expect(body.readableEnded).toBe(true)
    expect(count.cuts).toBe(0)
  })

  it("finish: a body held open is over after one turn and read on in the background, at most its bytes", async () => {
    const { body, reader } = readerOf()
    const count = cutShort(body)
    await new Promise<void>((resolve) => reader.finish(8, 60_000, resolve))
    expect(body.destroyed).toBe(false)
    body.write("12345")
    await turn()
    expect(body.destroyed).toBe(false)
    body.write("6789")
    await turn()
    expect(count.cuts).toBe(1)
  })

  it("finish: a body held open is destroyed when the time after [DONE] is up", async () => {
    const { body, reader } = readerOf()
    await new Promise<void>((resolve) => reader.finish(4096, 1, resolve))
    await new Promise((resolve) => body.once("close", resolve))
    expect(body.destroyed).toBe(true)
  })

  it("finish stopped (the stream was interrupted) releases the body at once", () => {
    const { body, reader } = readerOf()
    const stop = reader.finish(4096, 100, () => {})
    expect(stop).toBeDefined()
    stop!()
    expect(body.destroyed).toBe(true)
  })
})
