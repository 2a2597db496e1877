/**
 * The Promise API's metadata, as openai-node gives it: every call of one request returns a promise that is
 * awaited as before and also offers `withResponse()` (`{ data, response, request_id }`) and `asResponse()`;
 * a stream returns an iterable that also offers `withResponse()`. Against the reference service, over a
 * socket on 127.0.0.1 and in memory: the request id and rate-limit figures are the service's own, each call
 * is sent once whichever of them is used, and the key never shows.
 */
import { describe, Effect, expect, it, transportLayers } from "@studio-effect/line"
import { type DataWithResponse, Studio } from "studio-effect/promise"
import * as Reference from "studio-effect/reference"

const key = "sk-promise-metadata-0123456789"
const request = { model: "fpmodel-mini", messages: [{ role: "user" as const, content: "Tell me about the sea" }] }
const requestId = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const options: Reference.ReferenceOptions = { apiKeys: [key], fileProcessingDuration: 0 }

/** The checks every answer's metadata passes: a 200 with the service's request id and figures, no key. */
const expectMetadata = (answer: DataWithResponse<unknown>) => {
  expect(answer.response.status).toBe(200)
  expect(answer.request_id).toMatch(requestId)
  expect(answer.response.requestId).toBe(answer.request_id)
  expect(answer.response.headers["x-request-id"]).toBe(answer.request_id)
  expect(answer.response.rateLimit.limitRequests).toBe(1_000_000)
  expect(JSON.stringify(answer.response)).not.toContain(key)
}

const scenarios = async (studio: Studio) => {
  try {
    // awaited, a call is its value as before; withResponse() and asResponse() read the same answer
    const created = studio.chat.create(request)
    expect(created).toBeInstanceOf(Promise)
    const answer = await created.withResponse()
    expectMetadata(answer)
    expect(await created).toBe(answer.data)
    expect(await created.asResponse()).toEqual(answer.response)
    expect(answer.data.choices[0]!.message.content).not.toBe("")
    // one request for all three: the next call's window has exactly one request fewer left
    const models = await studio.models.list().withResponse()
    expectMetadata(models)
    expect(models.response.rateLimit.remainingRequests).toBe(answer.response.rateLimit.remainingRequests! - 1)
    expect(models.data.data.length).toBeGreaterThan(0)

    // a stream: withResponse() opens it, its data gives the chunks; iterated alone, it is the plain stream
    const opened = await studio.chat.stream(request).withResponse()
    expectMetadata(opened)
    expect(opened.response.headers["content-type"]).toMatch(/^text\/event-stream/)
    let streamed = ""
    for await (const chunk of opened.data) streamed += chunk.choices[0]?.delta.content ?? ""
    expect(streamed).toBe(answer.data.choices[0]!.message.content)
    let plain = ""
    for await (const text of studio.chat.streamText(request)) plain += text
    expect(plain).toBe(streamed)
    const text = studio.chat.streamText(request)
    const textAnswer = await text.withResponse()
    expectMetadata(textAnswer)
    let fromText = ""
    // once opened, iterating the stream itself iterates what withResponse() opened
    for await (const piece of text) fromText += piece
    expect(fromText).toBe(streamed)

    // every library operation
    const uploaded = await studio.library.upload(new TextEncoder().encode("A refund takes ten days."), {
      name: "refunds.txt",
      labels: ["billing"],
      batchId: "batch-1"
    }).withResponse()
    const fileId = uploaded.data.fileId
    const library = [
      uploaded,
      await studio.library.list().withResponse(),
      await studio.library.retrieve(fileId).withResponse(),
      await studio.library.update(fileId, { labels: ["policy"] }).withResponse(),
      await studio.library.search({ query: "refund" }).withResponse(),
      await studio.library.batchStatus("batch-1").withResponse(),
      await studio.library.delete(fileId).withResponse()
    ]
    for (const libraryAnswer of library) expectMetadata(libraryAnswer)
    expect(new Set(library.map((libraryAnswer) => libraryAnswer.request_id)).size).toBe(library.length)
    expect(library[4]!.data).toMatchObject({ results: [{ fileId }] })

    // a refusal rejects withResponse() and the awaited promise alike, with the operation's own error
    const refused = studio.assistants.retrieve("asst_missing")
    const [viaAwait, viaResponse] = await Promise.all([
      refused.then(() => undefined, (error) => error),
      refused.withResponse().then(() => undefined, (error) => error)
    ])
    expect(viaAwait).toBe(viaResponse)
    expect(viaAwait).toMatchObject({ _tag: "NotFound", requestId: expect.stringMatching(requestId) })
  } finally {
    await studio.close()
  }
}

describe("the Promise API's withResponse()", () => {
  for (const [name, transport] of transportLayers) {
    it.live(`over a socket (${name})`, () =>
      Effect.gen(function*() {
        const server = yield* Reference.listen(options)
        yield* Effect.promise(() =>
          scenarios(
            new Studio({
              apiKey: key,
              baseUrl: server.url,
              allowInsecureHttp: true,
              maxRetries: 0,
              httpClient: transport
            })
          )
        )
      }))
  }

  it.live("in memory", () => Effect.promise(() => scenarios(Studio.reference(options))))
})
