import { describe, Effect, expect, Layer, layer, NodeHttpServer } from "@studio-effect/line"
import { AI21 } from "ai21"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as Reference from "studio-effect/reference"

/** The Node server the reference service is served on, kept to read the port it was given. */
const nodeServer = http.createServer()

/** The reference service served by `Reference.serve` on a Node server bound to 127.0.0.1, port 0. */
const ServerLive = Reference.serve({ apiKeys: ["ai21-test-key"] }).pipe(
  Layer.provideMerge(NodeHttpServer.layer(() => nodeServer, { port: 0, host: "127.0.0.1" }))
)

const baseUrl = Effect.sync(() => `http://127.0.0.1:${(nodeServer.address() as AddressInfo).port}`)

layer(ServerLive)("the official ai21 SDK against the reference service over HTTP", (it) => {
  const messages = [{ role: "user" as const, content: "Say hello to the reference service" }]

  it.effect("completes a chat", () =>
    Effect.gen(function*() {
      const url = yield* baseUrl
      const client = new AI21({ apiKey: "ai21-test-key", baseURL: `${url}/studio/v1`, maxRetries: 0 })
      const completion = yield* Effect.promise<any>(() =>
        client.chat.completions.create({ model: "fpmodel-mini" as any, messages, max_tokens: 200 })
      )
      expect(completion.id).toMatch(/^chat-[0-9a-f]{32}$/)
      expect(completion.choices[0]?.message.content).toContain("Say hello to the reference service")
      expect(completion.choices[0]?.finish_reason).toBe("stop")
      expect(completion.usage.total_tokens).toBe(completion.usage.prompt_tokens + completion.usage.completion_tokens)
    }))

  it.effect("streams a chat", () =>
    Effect.gen(function*() {
      const url = yield* baseUrl
      const client = new AI21({ apiKey: "ai21-test-key", baseURL: `${url}/studio/v1`, maxRetries: 0 })
      const collected = yield* Effect.promise(async () => {
        const stream = await client.chat.completions.create({ model: "fpmodel-mini" as any, messages, stream: true })
        const chunks: Array<any> = []
        for await (const chunk of stream) chunks.push(chunk)
        return chunks
      })
      expect(collected[0].choices[0].delta).toEqual({ role: "assistant" })
      const text = collected.map((chunk) => chunk.choices[0].delta.content ?? "").join("")
      expect(text).toContain("Say hello to the reference service")
      const last = collected.at(-1)
      expect(last.choices[0].finish_reason).toBe("stop")
      expect(last.usage.completion_tokens).toBe(collected.length - 2)
    }))

  it.effect("is refused with a wrong key, as the service refuses it", () =>
    Effect.gen(function*() {
      const url = yield* baseUrl
      const client = new AI21({ apiKey: "wrong", baseURL: `${url}/studio/v1`, maxRetries: 0 })
      const error = yield* Effect.promise(() =>
        client.chat.completions.create({ model: "fpmodel-mini" as any, messages }).then(() => undefined, (e: unknown) =>
          e)
      )
      expect(String(error)).toMatch(/401/)
    }))
})

describe("Reference.listen", () => {
  layer(Layer.empty)((it) => {
    it.effect("serves on a free port of 127.0.0.1 and answers with JSON", () =>
      Effect.gen(function*() {
        const server = yield* Reference.listen()
        expect(server.host).toBe("127.0.0.1")
        expect(server.port).toBeGreaterThan(0)
        const response = yield* Effect.promise(() =>
          fetch(`${server.url}/studio/v1/assistants`, { headers: { authorization: "Bearer any" } })
        )
        expect(response.status).toBe(200)
        expect(response.headers.get("content-type")).toMatch(/^application\/json/)
        expect(yield* Effect.promise(() => response.json())).toEqual({ results: [] })
      }))
  })
})
