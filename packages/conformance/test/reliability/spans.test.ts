/**
 * No value from a server reaches a span attribute before it is checked against the secrets: a hostile
 * server on 127.0.0.1 copies the `Authorization` header it got into every answer's `id` (a completion, a
 * chunk, a run, an assistant, a tool call) and into a completion's finish reason, and no span of any
 * operation, of the tool loop, nor of the AI provider, carries the key; nor does the error of a tool call
 * the loop cannot run.
 */
import {
  describe,
  Effect,
  expect,
  it,
  LanguageModel,
  Layer,
  makeRecording,
  Schedule,
  Stream
} from "@studio-effect/line"
import type * as http from "node:http"
import { Assistants, Chat, Maestro } from "studio-effect"
import { StudioLanguageModel } from "studio-effect/ai"
import { canaries, canaryKey, chatRequest, clientLayer, runRequest, showError, transportNames } from "./harness.js"
import { hostileServer } from "./hostile.js"

/** Answers every operation with the `Authorization` header it got as the answer's `id`. */
const echoingKey = (request: http.IncomingMessage, response: http.ServerResponse): void => {
  const id = String(request.headers.authorization)
  const url = request.url ?? ""
  const json = (value: unknown) => {
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify(value))
  }
  if (url.endsWith("/chat/completions")) {
    if (request.headers.accept === "text/event-stream") {
      response.writeHead(200, { "content-type": "text/event-stream" })
      const chunk = { id, choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] }
      return void response.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`)
    }
    return json({
      id,
      choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: id }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
    })
  }
  if (url.includes("/maestro/runs")) {
    return json({ id, status: request.method === "POST" ? "in_progress" : "completed", result: "done" })
  }
  if (url.endsWith("/run")) return json({ id, status: "completed", result: "done" })
  return json({ id, name: "echo", created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z" })
}

describe("span attributes hold no secret from a server", () => {
  for (const transport of transportNames) {
    it.live(`every operation's and the AI provider's spans, over ${transport}`, () =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* hostileServer(echoingKey)
        const { layer: observe, recording } = makeRecording()
        const client = clientLayer(server.url, transport, { maxRetries: 0 })
        const calls = Effect.gen(function*() {
          yield* Chat.create(chatRequest)
          yield* Chat.accumulate(Chat.stream(chatRequest))
          yield* Maestro.createAndPoll(runRequest, { schedule: Schedule.recurs(3) })
          yield* Assistants.create({ name: "echo" })
          yield* Assistants.run("asst-1", { input: [{ role: "user", content: "Hi" }] })
          yield* LanguageModel.generateText({ prompt: "Hi" })
          yield* Stream.runDrain(LanguageModel.streamText({ prompt: "Hi" }))
        })
        const model = Layer.provide(StudioLanguageModel.model("fpmodel-mini"), client)
        yield* Effect.orDie(Effect.provide(calls, Layer.mergeAll(client, model, observe)))
        const spans = new Map(recording.spans.map((span) => [span.name, span]))
        // the ids were there, redacted: the answers did carry the key
        expect(spans.get("studio.chat.create")?.attributes.get("gen_ai.response.id")).toBe("Bearer <redacted>")
        expect(spans.get("studio.maestro.create")?.attributes.get("studio.run.id")).toBe("Bearer <redacted>")
        expect(spans.get("studio.maestro.poll")?.attributes.get("studio.run.id")).toBe("Bearer <redacted>")
        expect(spans.get("studio.maestro.retrieve")?.attributes.get("studio.run.id")).toBe("Bearer <redacted>")
        expect(spans.get("studio.assistants.create")?.attributes.get("studio.assistant.id")).toBe("Bearer <redacted>")
        expect(spans.get("studio.assistants.run")?.attributes.get("studio.run.id")).toBe("Bearer <redacted>")
        const aiSpans = recording.spans.filter((span) => span.name.startsWith("LanguageModel."))
        expect(aiSpans.map((span) => span.attributes.get("gen_ai.response.id"))).toEqual([
          "Bearer <redacted>",
          "Bearer <redacted>"
        ])
        const everything = recording.text()
        expect(everything).toContain("<redacted>")
        for (const canary of canaries) expect(everything).not.toContain(canary)
        expect(server.requests.length).toBe(8)
        expect(canaryKey.length).toBeGreaterThan(10)
      })))
  }
})

describe("the tool loop", () => {
  /** The first completion asks for `tool` with the `Authorization` header as the call's id and arguments. */
  const toolCalling = (tool: string) => {
    let answered = 0
    return (request: http.IncomingMessage, response: http.ServerResponse) => {
      const key = String(request.headers.authorization)
      const message = answered++ === 0
        ? {
          role: "assistant",
          content: null,
          tool_calls: [{ id: key, type: "function", function: { name: tool, arguments: JSON.stringify({ key }) } }]
        }
        : { role: "assistant", content: "done" }
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify({
        id: "chat-1",
        choices: [{ index: 0, message, finish_reason: answered === 1 ? "tool_calls" : "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
      }))
    }
  }

  for (const transport of transportNames) {
    it.live(`a tool call's id in its span, and a call that cannot run, hold no key, over ${transport}`, () =>
      Effect.scoped(Effect.gen(function*() {
        const known = yield* hostileServer(toolCalling("lookup"))
        const { layer: observe, recording } = makeRecording()
        const result = yield* Chat.runTools(chatRequest, { lookup: () => Effect.succeed("found") }).pipe(
          Effect.provide(Layer.merge(clientLayer(known.url, transport, { maxRetries: 0 }), observe)),
          Effect.orDie
        )
        expect(result.finished).toBe(true)
        const toolSpan = recording.spans.find((span) => span.name === "studio.chat.tool")
        expect(toolSpan?.attributes.get("gen_ai.tool.call.id")).toBe("Bearer <redacted>")
        for (const canary of canaries) expect(recording.text()).not.toContain(canary)

        const unknown = yield* hostileServer(toolCalling("missing"))
        const error = yield* Chat.runTools(chatRequest, { lookup: () => Effect.succeed("found") }).pipe(
          Effect.provide(clientLayer(unknown.url, transport, { maxRetries: 0 })),
          Effect.flip
        )
        expect(error._tag).toBe("ToolCallError")
        const shown = showError(error)
        expect(shown).toContain("<redacted>")
        for (const canary of canaries) expect(shown).not.toContain(canary)
      })))
  }
})
