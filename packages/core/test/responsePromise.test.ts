import { describe, expect, it } from "vitest"
import { ResponsePromise, ResponseStream } from "../src/platform/responsePromise.js"
import type { ResponseMetadata } from "../src/wire/responseMetadata.js"

const metadata: ResponseMetadata = {
  status: 200,
  headers: { "x-request-id": "req-1" },
  requestId: "req-1",
  rateLimit: { remainingRequests: 9 }
}

describe("ResponsePromise", () => {
  it("is awaited as its value; withResponse() and asResponse() read the same answer, made once", async () => {
    let made = 0
    const promise = new ResponsePromise(
      Promise.resolve().then(() => {
        made++
        return { ...metadata, value: { id: "chat-1" } }
      })
    )
    expect(promise).toBeInstanceOf(Promise)
    const value = await promise
    expect(value).toEqual({ id: "chat-1" })
    expect(await promise.withResponse()).toEqual({ data: value, response: metadata, request_id: "req-1" })
    expect((await promise.withResponse()).data).toBe(value)
    expect(await promise.asResponse()).toEqual(metadata)
    expect(made).toBe(1)
    // derived promises are plain ones
    const derived = promise.then((answer) => answer.id)
    expect(derived).not.toBeInstanceOf(ResponsePromise)
    expect(await derived).toBe("chat-1")
  })

  it("rejects await, catch, finally and withResponse() with the call's own error", async () => {
    const error = new Error("refused")
    const promise = new ResponsePromise<string>(Promise.reject(error))
    await expect(promise).rejects.toBe(error)
    await expect(promise.withResponse()).rejects.toBe(error)
    await expect(promise.asResponse()).rejects.toBe(error)
    expect(await promise.catch((thrown) => thrown)).toBe(error)
    let settled = false
    await expect(promise.finally(() => (settled = true))).rejects.toBe(error)
    expect(settled).toBe(true)
  })
})

async function* elements(...values: Array<number>) {
  yield* values
}

const collect = async <A>(iterable: AsyncIterable<A>): Promise<Array<A>> => {
  const out: Array<A> = []
  for await (const element of iterable) out.push(element)
  return out
}

describe("ResponseStream", () => {
  it("iterated alone, is the plain stream, and opens nothing", async () => {
    let opened = 0
    const stream = new ResponseStream(() => elements(1, 2), async () => {
      opened++
      return { ...metadata, value: elements(3) }
    })
    expect(await collect(stream)).toEqual([1, 2])
    expect(opened).toBe(0)
  })

  it("withResponse() opens once; iterating the stream then iterates what it opened", async () => {
    let opened = 0
    let iterated = 0
    const stream = new ResponseStream(() => {
      iterated++
      return elements(1, 2)
    }, async () => {
      opened++
      return { ...metadata, value: elements(3, 4) }
    })
    const answer = await stream.withResponse()
    expect(answer.response).toEqual(metadata)
    expect(answer.request_id).toBe("req-1")
    await stream.withResponse()
    expect(await collect(stream)).toEqual([3, 4])
    expect(opened).toBe(1)
    expect(iterated).toBe(0)
  })
})
