/**
 * How a Promise API call stops: by its own signal or the client's closing, and a stream's iterable with the
 * signal's reason.
 */
import { describe, expect, it } from "vitest"
import { ClientClosed } from "../src/failure/ClientClosed.js"
import { callSignal, closedIterable, untilAborted } from "../src/platform/cancellation.js"

async function* counting(): AsyncGenerator<number> {
  for (let i = 0;; i++) yield i
}

describe("cancellation", () => {
  it("stops a call by its own signal or by the client's closing, whichever aborts first", () => {
    const closing = new AbortController()
    expect(callSignal(closing.signal, undefined)).toBe(closing.signal)
    const own = new AbortController()
    const signal = callSignal(closing.signal, own.signal)
    expect(signal.aborted).toBe(false)
    own.abort("stop")
    expect(signal.reason).toBe("stop")
    const afterClose = callSignal(closing.signal, new AbortController().signal)
    closing.abort(new ClientClosed(true))
    expect(afterClose.reason).toBeInstanceOf(ClientClosed)
  })

  it("rejects the first step of an iterable asked for after close", async () => {
    const rejected = closedIterable<number>()[Symbol.asyncIterator]().next()
    await expect(rejected).rejects.toMatchObject({ _tag: "ClientClosed", inFlight: false })
  })

  it("hands out elements until the signal aborts, then throws its reason and ends the iterable", async () => {
    const controller = new AbortController()
    const seen: Array<number> = []
    const reading = (async () => {
      for await (const element of untilAborted(counting(), controller.signal)) {
        seen.push(element)
        if (element === 2) controller.abort(new Error("enough"))
      }
    })()
    await expect(reading).rejects.toThrow("enough")
    expect(seen).toEqual([0, 1, 2])
    await expect(untilAborted(counting(), controller.signal)[Symbol.asyncIterator]().next()).rejects.toThrow("enough")
  })
})
