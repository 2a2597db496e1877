/**
 * Real clients against `studio-effect serve` (the built command) on 127.0.0.1: the official `ai21` and `openai` npm
 * clients do a tool-calling conversation (sending the assistant message back exactly as it was returned),
 * `openai`'s `runTools()` completes, and documents with a metadata map and requests with explicit `null`s
 * are answered. The SDK does the same conversation in memory and over a socket on both transports, by
 * hand and with `Chat.runTools`.
 */
import {
  afterAll,
  beforeAll,
  describe,
  Effect,
  expect,
  it,
  Layer,
  Redacted,
  transportLayers
} from "@studio-effect/line"
import { AI21 } from "ai21"
import type { ChildProcess } from "node:child_process"
import OpenAI from "openai"
import { Chat, StudioClient } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { startServe, stop } from "../support/serve.js"
import { question, weather } from "../support/weather.js"

const key = "interop-key"

const toolAnswer = "{\"city\":\"Lisbon\",\"sky\":\"sunny\",\"celsius\":21}"

/** Explicit nulls for every optional field the clients send as null. */
const nulls = {
  n: null,
  stop: null,
  max_tokens: null,
  temperature: null,
  top_p: null,
  response_format: null,
  tools: null,
  stream: null
}

// `studio-effect serve`, the built command, as a user of these clients starts it: one for the whole file
let server: { readonly child: ChildProcess; readonly url: string } | undefined
beforeAll(async () => {
  server = await startServe(["--port", "0", "--api-key", key])
})
afterAll(async () => {
  if (server !== undefined) await stop(server.child)
})
const served = Effect.sync(() => ({ url: server!.url }))

describe("the ai21 npm client against the reference service", () => {
  it.live("a tool-calling conversation, sending the assistant message back exactly as returned", () =>
    Effect.gen(function*() {
      const server = yield* served
      const client = new AI21({ apiKey: key, baseURL: `${server.url}/studio/v1`, maxRetries: 0 })
      yield* Effect.promise(async () => {
        const first: any = await client.chat.completions.create({
          model: "fpmodel-mini" as any,
          messages: [question],
          tools: [weather]
        })
        const message = first.choices[0].message
        expect(message.content).toBeNull()
        expect(message.tool_calls).toHaveLength(1)
        expect(JSON.parse(message.tool_calls[0].function.arguments)).toEqual({ city: "Lisbon" })
        const second: any = await client.chat.completions.create({
          model: "fpmodel-mini" as any,
          messages: [question, message, { role: "tool", tool_call_id: message.tool_calls[0].id, content: toolAnswer }],
          tools: [weather]
        })
        expect(second.choices[0].finish_reason).toBe("stop")
        expect(second.choices[0].message.tool_calls).toBeNull()
        expect(second.choices[0].message.content).toContain(`The get_weather tool returned: ${toolAnswer}`)
        // and the final message goes back too, with tool_calls: null
        const third: any = await client.chat.completions.create({
          model: "fpmodel-mini" as any,
          messages: [
            question,
            message,
            { role: "tool", tool_call_id: message.tool_calls[0].id, content: toolAnswer },
            second.choices[0].message,
            { role: "user", content: "Thanks" }
          ]
        })
        expect(third.choices[0].message.content).toContain("Thanks")
      })
    }))

  it.live("documents with a metadata map, and explicit nulls for optional fields", () =>
    Effect.gen(function*() {
      const server = yield* served
      const client = new AI21({ apiKey: key, baseURL: `${server.url}/studio/v1`, maxRetries: 0 })
      yield* Effect.promise(async () => {
        const answer: any = await client.chat.completions.create({
          model: "fpmodel-mini" as any,
          messages: [{ role: "user", content: "When were the notes written?" }],
          documents: [{ content: "The notes were written in 1843.", metadata: { author: "Ada Lovelace" } }],
          ...nulls
        })
        expect(answer.choices).toHaveLength(1)
        expect(answer.choices[0].message.content).toContain("(source: Ada Lovelace)")
      })
    }))

  it.live("a bad request is a 422 with one FastAPI entry per problem", () =>
    Effect.gen(function*() {
      const server = yield* served
      const client = new AI21({ apiKey: key, baseURL: `${server.url}/studio/v1`, maxRetries: 0 })
      const error = yield* Effect.promise(() =>
        client.chat.completions.create({
          model: "fpmodel-mini" as any,
          messages: [{ role: "user", content: "hi" }],
          temperature: 3
        }).then(() => undefined, (error: unknown) => error)
      )
      const text = String(error)
      expect(text).toContain("422")
      const detail = JSON.parse(text.slice(text.indexOf("{"))).detail
      expect(detail).toEqual([
        { loc: ["body", "temperature"], msg: "temperature must be between 0 and 2", type: "value_error" }
      ])
    }))
})

describe("the openai npm client against the reference service", () => {
  const openai = (url: string) => new OpenAI({ apiKey: key, baseURL: `${url}/studio/v1`, maxRetries: 0 })

  it.live("a tool-calling conversation by hand, sending the assistant message back exactly as returned", () =>
    Effect.gen(function*() {
      const server = yield* served
      const client = openai(server.url)
      yield* Effect.promise(async () => {
        const first = await client.chat.completions.create({
          model: "fpmodel-mini",
          messages: [question],
          tools: [weather]
        })
        const message = first.choices[0]!.message
        expect(message.content).toBeNull()
        const call = message.tool_calls![0]!
        expect(call.type).toBe("function")
        const second = await client.chat.completions.create({
          model: "fpmodel-mini",
          messages: [question, message, { role: "tool", tool_call_id: call.id, content: toolAnswer }],
          tools: [weather]
        })
        expect(second.choices[0]!.message.content).toContain(`The get_weather tool returned: ${toolAnswer}`)
      })
    }))

  it.live("runTools() completes: it calls the function and returns the final content", () =>
    Effect.gen(function*() {
      const server = yield* served
      const client = openai(server.url)
      const seen: Array<unknown> = []
      const content = yield* Effect.promise(() =>
        client.chat.completions.runTools({
          model: "fpmodel-mini",
          messages: [question],
          tools: [{
            type: "function",
            function: {
              name: "get_weather",
              description: "The current weather in a city",
              parameters: weather.function.parameters,
              parse: JSON.parse,
              function: (args: { city: string }) => {
                seen.push(args)
                return { city: args.city, sky: "sunny", celsius: 21 }
              }
            }
          }]
        }).finalContent()
      )
      expect(seen).toEqual([{ city: "Lisbon" }])
      expect(content).toContain(`The get_weather tool returned: ${toolAnswer}`)
    }))

  it.live("documents with a metadata map and explicit nulls, as extra fields of the body", () =>
    Effect.gen(function*() {
      const server = yield* served
      const client = openai(server.url)
      const answer = yield* Effect.promise(() =>
        client.chat.completions.create({
          model: "fpmodel-mini",
          messages: [{ role: "user", content: "When were the notes written?" }],
          n: null,
          stop: null,
          max_tokens: null,
          temperature: null,
          top_p: null,
          tools: null,
          documents: [{ content: "The notes were written in 1843.", metadata: { author: "Ada Lovelace" } }]
        } as any)
      )
      expect((answer as any).choices[0].message.content).toContain("(source: Ada Lovelace)")
    }))
})

/** The SDK's conversation, by hand and with `Chat.runTools`, on whatever client layer it is given. */
const sdkConversation = Effect.gen(function*() {
  const first = yield* Chat.create({ model: "fpmodel-mini", messages: [question], tools: [weather] })
  const message = first.choices[0]!.message
  const call = message.tool_calls![0]!
  const second = yield* Chat.create({
    ...nulls,
    model: "fpmodel-mini",
    messages: [question, message, { role: "tool", tool_call_id: call.id, content: toolAnswer }],
    tools: [weather],
    documents: [{ content: "The weather report.", metadata: { source: "met office" } }]
  })
  expect(second.choices[0]!.message.content).toContain(`The get_weather tool returned: ${toolAnswer}`)
  const looped = yield* Chat.runTools(
    { model: "fpmodel-mini", messages: [question], tools: [weather] },
    { get_weather: (args: any) => Effect.succeed({ city: args.city, sky: "sunny", celsius: 21 }) }
  )
  expect(looped.finished).toBe(true)
  expect(looped.completion.choices[0]!.message.content).toContain(`The get_weather tool returned: ${toolAnswer}`)
  expect(looped.messages).toHaveLength(4)
})

describe("the SDK does the same conversation", () => {
  it.effect("in memory", () =>
    sdkConversation.pipe(Effect.provide(Reference.layerClient({ client: { apiKey: Redacted.make("k") } }))))

  for (const [name, transport] of transportLayers) {
    it.live(`over a socket with ${name}`, () =>
      Effect.gen(function*() {
        const server = yield* served
        yield* sdkConversation.pipe(
          Effect.provide(
            StudioClient.layer({ apiKey: Redacted.make(key), baseUrl: server.url }).pipe(
              Layer.orDie,
              Layer.provide(transport)
            )
          )
        )
      }))
  }
})

describe("hostile bodies against studio-effect serve", () => {
  const post = (url: string, body: string) =>
    fetch(`${url}/studio/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body
    })

  it.live("a tool schema asking for a billion characters is a bounded 200; broken and deep bodies are 4xx", () =>
    Effect.gen(function*() {
      const server = yield* served
      yield* Effect.promise(async () => {
        const huge = await post(
          server.url,
          JSON.stringify({
            model: "fpmodel-mini",
            messages: [question],
            tools: [{
              type: "function",
              function: {
                name: "get_weather",
                description: "d",
                parameters: {
                  type: "object",
                  properties: { city: { type: "string", minLength: 1_000_000_000 } },
                  required: ["city"]
                }
              }
            }]
          })
        )
        expect(huge.status).toBe(200)
        expect((await huge.text()).length).toBeLessThan(100_000)
        for (const body of ["{", "[".repeat(10_000) + "]".repeat(10_000), JSON.stringify({ model: null })]) {
          const answer = await post(server.url, body)
          expect(answer.status).toBeGreaterThanOrEqual(400)
          expect(answer.status).toBeLessThan(500)
        }
        const stillServing = await post(server.url, JSON.stringify({ model: "fpmodel-mini", messages: [question] }))
        expect(stillServing.status).toBe(200)
      })
    }))
})
