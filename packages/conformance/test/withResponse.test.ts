import { describe, Effect, expect, it } from "@studio-effect/line"
/**
 * Metadata on success over a socket: each operation's `…WithResponse` variant gives the decoded value with
 * the answer's status, headers, request id and rate-limit figures, and sends exactly what the plain
 * operation sends.
 */
import { Assistants, Chat, Maestro, Models } from "studio-effect"
import { clientOf, testServer } from "./support/testServer.js"

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
