/**
 * Metadata on success: each operation's `…WithResponse` variant gives the decoded value (a stream's, the
 * stream of its chunks) with the answer's status, headers, request id and rate-limit figures, and sends
 * exactly what the plain operation sends; against a test server over a socket, and against the reference
 * service (whose request ids and rate-limit figures are its own) in memory and over a socket on every
 * transport. The metadata never shows the API key.
 */
import { collect, describe, Effect, expect, it } from "@studio-effect/line"
import { Assistants, Chat, Library, Maestro, Models, type StudioClient } from "studio-effect"
import { referenceClients } from "./support/referenceClients.js"
import { clientOf, testKey, testServer } from "./support/testServer.js"

const metadata = {
  "x-request-id": "req_42",
  "x-ratelimit-limit-requests": "600",
  "x-ratelimit-remaining-requests": "599",
  "x-ratelimit-reset-requests": "100ms",
  "x-ratelimit-limit-tokens": "150000",
  "x-ratelimit-remaining-tokens": "149000",
  "x-ratelimit-reset-tokens": "6m0s",
  "x-served-by": "edge-1"
}

const rateLimit = {
  limitRequests: 600,
  remainingRequests: 599,
  resetRequests: "100ms",
  limitTokens: 150000,
  remainingTokens: 149000,
  resetTokens: "6m0s"
}

const completion = {
  id: "chat-1",
  choices: [{ index: 0, message: { role: "assistant", content: "Hi" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
}
const run = { id: "run-1", status: "completed", result: "Done" }
const assistant = { id: "asst_1", object: "assistant", name: "A", created_at: "t", updated_at: "t" }
const models = {
  data: [{
    id: "fpmodel-mini",
    name: "fpmodel-mini",
    updated: "2026-01-01T00:00:00Z",
    context_length: 256000,
    quantization: "FP8",
    max_completion_tokens: 4096,
    pricing: { prompt: "0.0000002", completion: "0.0000004" }
  }]
}

const answers: Record<string, unknown> = {
  "POST /studio/v1/chat/completions": completion,
  "POST /studio/v1/maestro/runs": run,
  "GET /studio/v1/maestro/runs/run-1": run,
  "POST /studio/v1/assistants": assistant,
  "GET /studio/v1/assistants": { results: [assistant] },
  "GET /studio/v1/assistants/asst_1": assistant,
  "PATCH /studio/v1/assistants/asst_1": assistant,
  "DELETE /studio/v1/assistants/asst_1": { id: "asst_1", object: "assistant", deleted: true },
  "POST /studio/v1/assistants/asst_1/run": run,
  "GET /studio/v1/models": models
}

const input = [{ role: "user" as const, content: "Hi" }]

describe("…WithResponse over a socket", () => {
  it.effect("every operation gives its value with the status, headers, request id and rate-limit figures", () =>
    Effect.gen(function*() {
      const server = yield* testServer((request) => ({
        headers: metadata,
        json: answers[`${request.method} ${request.url}`] ?? { detail: "unexpected" }
      }))
      const calls = [
        [Chat.createWithResponse({ model: "fpmodel-mini", messages: input }), completion],
        [Maestro.createWithResponse({ input: "Hi" }), run],
        [Maestro.retrieveWithResponse("run-1"), run],
        [Assistants.createWithResponse({ name: "A" }), assistant],
        [Assistants.listWithResponse(), { results: [assistant] }],
        [Assistants.retrieveWithResponse("asst_1"), assistant],
        [Assistants.updateWithResponse("asst_1", { name: "A" }), assistant],
        [Assistants.deleteWithResponse("asst_1"), { id: "asst_1", object: "assistant", deleted: true }],
        [Assistants.runWithResponse("asst_1", { input }), run],
        [Models.listWithResponse(), models]
      ] as const
      for (const [call, value] of calls) {
        const answer = yield* Effect.provide(call as Effect.Effect<any, unknown, any>, clientOf(server.url))
        expect(answer.value).toMatchObject(value)
        expect(answer.status).toBe(200)
        expect(answer.requestId).toBe("req_42")
        expect(answer.rateLimit).toEqual(rateLimit)
        expect(answer.headers["x-served-by"]).toBe("edge-1")
        expect(answer.headers["content-type"]).toMatch(/^application\/json/)
      }
      expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
        "POST /studio/v1/chat/completions",
        "POST /studio/v1/maestro/runs",
        "GET /studio/v1/maestro/runs/run-1",
        "POST /studio/v1/assistants",
        "GET /studio/v1/assistants",
        "GET /studio/v1/assistants/asst_1",
        "PATCH /studio/v1/assistants/asst_1",
        "DELETE /studio/v1/assistants/asst_1",
        "POST /studio/v1/assistants/asst_1/run",
        "GET /studio/v1/models"
      ])
    }))

  it.effect("an answer without the headers gives no request id and no figures; the value is the plain call's", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: completion }))
      const request = { model: "fpmodel-mini", messages: input }
      const answer = yield* Effect.provide(Chat.createWithResponse(request), clientOf(server.url))
      const plain = yield* Effect.provide(Chat.create(request), clientOf(server.url))
      expect(answer.value).toEqual(plain)
      expect(answer.requestId).toBeUndefined()
      expect(answer.rateLimit).toEqual({})
      expect(server.requests[0]!.body).toBe(server.requests[1]!.body)
    }))
})

/** What a request id of the reference service looks like: a UUID of its own per answer. */
const referenceRequestId = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The reference service's limit in these tests: each answer reports one request fewer left. */
const limit = 1_000

const metadataOf = (answer: StudioClient.WithResponse<unknown>) => {
  const { value: _value, ...metadata } = answer
  return metadata
}

describe("…WithResponse against the reference service", () => {
  for (const [where, client] of referenceClients({ rateLimit: { limit }, fileProcessingDuration: 0 })) {
    it.effect(`every Library operation, Chat.streamWithResponse and Models.listWithResponse ${where}`, () =>
      Effect.gen(function*() {
        const layer = yield* client
        const answers = yield* Effect.provide(
          Effect.gen(function*() {
            const uploaded = yield* Library.uploadWithResponse(new TextEncoder().encode("A refund takes ten days."), {
              name: "refunds.txt",
              labels: ["billing"],
              batchId: "batch-1"
            })
            const fileId = uploaded.value.fileId
            const listed = yield* Library.listWithResponse({ label: ["billing"] })
            const retrieved = yield* Library.retrieveWithResponse(fileId)
            const updated = yield* Library.updateWithResponse(fileId, { labels: ["policy"] })
            const searched = yield* Library.searchWithResponse({ query: "refund", labels: ["policy"] })
            const batch = yield* Library.batchStatusWithResponse("batch-1")
            const deleted = yield* Library.deleteWithResponse(fileId)
            const models = yield* Models.listWithResponse()
            const created = yield* Chat.createWithResponse({ model: "fpmodel-mini", messages: input })
            const streamed = yield* Effect.scoped(Effect.flatMap(
              Chat.streamWithResponse({ model: "fpmodel-mini", messages: input }),
              (answer) => Effect.map(Chat.accumulate(answer.value), (completion) => ({ ...answer, completion }))
            ))
            // the values are the plain operations'
            expect(listed.value.map((file) => file.fileId)).toEqual([fileId])
            expect(retrieved.value).toMatchObject({ fileId, name: "refunds.txt" })
            expect(updated.value).toBeUndefined()
            expect(searched.value.results.map((result) => result.fileId)).toEqual([fileId])
            expect(batch.value).toMatchObject({ batch_id: "batch-1" })
            expect(deleted.value).toBeUndefined()
            expect(models.value.data.length).toBeGreaterThan(0)
            expect(created.value.choices[0]!.message.content).not.toBe("")
            expect(streamed.completion.choices[0]!.message.content).toBe(created.value.choices[0]!.message.content)
            expect(streamed.headers["content-type"]).toMatch(/^text\/event-stream/)
            return [uploaded, listed, retrieved, updated, searched, batch, deleted, models, created, streamed]
          }),
          layer
        )
        const ids = new Set<string>()
        answers.forEach((answer, index) => {
          expect(answer.status).toBe(200)
          expect(answer.requestId).toMatch(referenceRequestId)
          expect(answer.headers["x-request-id"]).toBe(answer.requestId)
          ids.add(answer.requestId!)
          // one request each, counted in the key's window before it was answered
          expect(answer.rateLimit).toMatchObject({ limitRequests: limit, remainingRequests: limit - index - 1 })
          expect(answer.rateLimit.resetRequests).toMatch(/^\d+s$/)
          expect(JSON.stringify(metadataOf(answer))).not.toContain("Bearer")
        })
        expect(ids.size).toBe(answers.length)
      }))
  }

  it.effect("Chat.streamWithResponse gives the answer's metadata with its chunks, and sends what Chat.stream sends", () =>
    Effect.gen(function*() {
      const chunk = { id: "chat-1", choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }] }
      const server = yield* testServer(() => ({
        headers: { ...metadata, "content-type": "text/event-stream" },
        body: `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`
      }))
      const request = { model: "fpmodel-mini", messages: input }
      const answer = yield* Effect.provide(
        Effect.scoped(Effect.flatMap(
          Chat.streamWithResponse(request),
          (answer) => Effect.map(collect(answer.value), (chunks) => ({ ...metadataOf(answer), chunks }))
        )),
        clientOf(server.url)
      )
      expect(answer.status).toBe(200)
      expect(answer.requestId).toBe("req_42")
      expect(answer.rateLimit).toEqual(rateLimit)
      expect(answer.chunks.map((chunk) => chunk.choices[0]!.delta.content)).toEqual(["Hi"])
      expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ ...request, stream: true })
    }))

  it.effect("a refused stream fails the effect itself, with the service's error, before any chunk", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ status: 404, headers: metadata, json: { detail: "No such model" } }))
      const error = yield* Effect.flip(Effect.provide(
        Effect.scoped(Chat.streamWithResponse({ model: "fpmodel-mini", messages: input })),
        clientOf(server.url)
      ))
      expect(error).toMatchObject({ _tag: "NotFound", requestId: "req_42" })
    }))

  it.effect("the key never appears in the metadata, even where the service echoes it in a header", () =>
    Effect.gen(function*() {
      const echo = (request: { readonly headers: Readonly<Record<string, unknown>> }) => ({
        "x-request-id": `req ${String(request.headers["authorization"])}`,
        "x-echo": String(request.headers["authorization"]).replace(/^Bearer /, "")
      })
      const server = yield* testServer((request) =>
        request.url.startsWith("/studio/v1/chat/completions")
          ? {
            headers: { ...echo(request), "content-type": "text/event-stream" },
            body: "data: [DONE]\n\n"
          }
          : { headers: echo(request), json: [] }
      )
      const answers = yield* Effect.provide(
        Effect.all([
          Library.listWithResponse(),
          Effect.scoped(Effect.map(
            Chat.streamWithResponse({ model: "fpmodel-mini", messages: input }),
            metadataOf
          ))
        ]),
        clientOf(server.url)
      )
      for (const answer of answers) {
        const shown = JSON.stringify(metadataOf(answer as StudioClient.WithResponse<unknown>))
        expect(shown).not.toContain(testKey)
        expect(answer.requestId).toBe("req Bearer <redacted>")
        expect(answer.headers["x-echo"]).toBe("<redacted>")
      }
    }))
})
