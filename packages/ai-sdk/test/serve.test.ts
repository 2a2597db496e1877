/**
 * The provider with `ai` 7's own functions against `studio-effect serve` of the Effect 4 line, over a real
 * socket: text, streamed text, an object, a two-step tool loop, documents, warnings and the library.
 */
import { NoSuchModelError } from "@ai-sdk/provider"
import { generateObject, generateText, isStepCount, streamText, tool, uploadFile } from "ai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { z } from "zod"
import { createStudio, type StudioProvider } from "../src/index.js"
import { collect } from "./support/collect.js"
import { type Serve, startServe } from "./support/serve.js"

let serve: Serve
let studio: StudioProvider

beforeAll(async () => {
  serve = await startServe()
  studio = createStudio({ baseURL: serve.url, apiKey: "test-key" })
})

afterAll(() => serve?.stop())

describe("against studio-effect serve", () => {
  it("generateText gives the model's text, its finish reason and usage", async () => {
    const result = await generateText({ model: studio("fpmodel-mini"), prompt: "Say hello to the provider." })
    expect(result.text.length).toBeGreaterThan(0)
    expect(result.finishReason).toBe("stop")
    expect(result.usage.inputTokens).toBeGreaterThan(0)
    expect(result.usage.outputTokens).toBeGreaterThan(0)
    expect(result.response.id).toMatch(/^chat-/)
    expect(result.warnings).toEqual([])
  })

  it("streamText gives the same text as generateText, delta by delta, and one finish", async () => {
    const options = { system: "Be brief.", prompt: "What is a stream?", temperature: 0 } as const
    const whole = await generateText({ model: studio("fpmodel-mini"), ...options })
    const result = streamText({ model: studio("fpmodel-mini"), ...options })
    const deltas: Array<string> = []
    for await (const delta of result.textStream) deltas.push(delta)
    expect(deltas.length).toBeGreaterThan(1)
    expect(deltas.join("")).toBe(whole.text)
    expect(await result.finishReason).toBe("stop")
    expect((await result.usage).outputTokens).toBe(whole.usage.outputTokens)
  })

  it("fpmodel-large's reasoning: generateText's reasoningText, and streamText's reasoning before its text", async () => {
    const options = { prompt: "Is the sea salty?", temperature: 0 } as const
    const whole = await generateText({ model: studio("fpmodel-large"), ...options })
    expect(whole.reasoningText).toMatch(/^The request is "Is the sea salty\?"/)
    const parts: Array<{ readonly type: string; readonly text?: string }> = []
    for await (const part of streamText({ model: studio("fpmodel-large"), ...options }).fullStream) parts.push(part)
    const types = parts.map((part) => part.type)
    expect(types.indexOf("reasoning-end")).toBeLessThan(types.indexOf("text-start"))
    const reasoning = parts.filter((part) => part.type === "reasoning-delta").map((part) => part.text).join("")
    expect(reasoning).toBe(whole.reasoningText)
  })

  it("doStream gives stream-start, response-metadata, text parts, finish, and raw chunks when asked", async () => {
    const { stream } = await studio("fpmodel-mini").doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: "Hello there" }] }],
      includeRawChunks: true
    })
    const parts = await collect(stream)
    const types = [...new Set(parts.map((part) => part.type))]
    expect(types).toEqual([
      "stream-start",
      "raw",
      "response-metadata",
      "text-start",
      "text-delta",
      "text-end",
      "finish"
    ])
    const finish = parts.at(-1)
    expect(finish).toMatchObject({ type: "finish", finishReason: { unified: "stop", raw: "stop" } })
  })

  it("generateObject gives an object of the schema (JSON mode with the schema in the instruction)", async () => {
    const { object } = await generateObject({
      model: studio("fpmodel-mini"),
      schema: z.object({ name: z.string(), age: z.number().int() }),
      prompt: "Invent a person."
    })
    expect(typeof object.name).toBe("string")
    expect(Number.isInteger(object.age)).toBe(true)
  })

  it("a two-step tool loop: the model calls the tool, then answers with its result", async () => {
    const calls: Array<unknown> = []
    const result = await generateText({
      model: studio("fpmodel-mini"),
      tools: {
        weather: tool({
          description: "The weather in a city",
          inputSchema: z.object({ city: z.string() }),
          execute: async (input) => {
            calls.push(input)
            return { city: input.city, forecast: "sunny" }
          }
        })
      },
      stopWhen: isStepCount(2),
      prompt: "What is the weather in Paris?"
    })
    expect(calls).toHaveLength(1)
    expect(result.steps).toHaveLength(2)
    expect(result.steps[0]!.finishReason).toBe("tool-calls")
    expect(result.steps[1]!.finishReason).toBe("stop")
    expect(result.text).toContain("sunny")
  })

  it("streamText with tools generates, then gives the tool input parts and the call", async () => {
    const result = streamText({
      model: studio("fpmodel-mini"),
      tools: {
        weather: tool({ description: "The weather in a city", inputSchema: z.object({ city: z.string() }) })
      },
      prompt: "What is the weather in Paris?"
    })
    const types = new Set<string>()
    for await (const part of result.fullStream) types.add(part.type)
    expect([...types]).toEqual(
      expect.arrayContaining(["tool-input-start", "tool-input-delta", "tool-input-end", "tool-call"])
    )
    expect((await result.toolCalls)[0]!.toolName).toBe("weather")
  })

  it("documents from providerOptions.studio reach the model", async () => {
    const result = await generateText({
      model: studio("fpmodel-mini"),
      prompt: "What colour is the harbour lighthouse?",
      providerOptions: {
        studio: {
          documents: [{ content: "The harbour lighthouse is painted crimson.", metadata: { source: "guide" } }]
        }
      }
    })
    expect(result.text).toContain("crimson")
  })

  it("what the service lacks is a warning, not an error", async () => {
    const result = await generateText({
      model: studio("fpmodel-mini"),
      prompt: "Hello",
      topK: 3,
      seed: 7,
      presencePenalty: 0.5,
      frequencyPenalty: 0.5
    })
    expect((result.warnings ?? []).map((warning) => "feature" in warning ? warning.feature : "")).toEqual([
      "topK",
      "presencePenalty",
      "frequencyPenalty",
      "seed"
    ])
  })

  it("the library: upload, metadata, delete", async () => {
    const files = studio.files()
    const uploaded = await files.uploadFile({
      data: { type: "text", text: "The provider reads the library." },
      mediaType: "text/plain",
      filename: "notes.txt",
      providerOptions: { studio: { labels: ["notes"] } }
    })
    expect(uploaded.providerReference.studio).toMatch(/.+/)
    const metadata = await files.getFileMetadata({ file: uploaded.providerReference })
    expect(metadata).toMatchObject({ filename: "notes.txt", providerMetadata: { studio: { labels: ["notes"] } } })
    // a file is deleted once the library has processed it (a second after its upload, on serve's clock): its
    // status is read until then, for at most 20 seconds
    let status = metadata.providerMetadata?.studio?.status
    for (const deadline = Date.now() + 20_000; status === "PROCESSING" && Date.now() < deadline;) {
      status = (await files.getFileMetadata({ file: uploaded.providerReference })).providerMetadata?.studio?.status
    }
    expect(status).toBe("PROCESSED")
    const deleted = await files.deleteFile({ file: uploaded.providerReference })
    expect(deleted.deleted).toBe(true)
    await expect(files.getFileMetadata({ file: uploaded.providerReference })).rejects.toMatchObject({ statusCode: 404 })
  })

  it("ai's uploadFile takes the provider: the file lands in the library", async () => {
    const uploaded = await uploadFile({
      api: studio,
      data: new TextEncoder().encode("Uploaded through ai."),
      mediaType: "text/plain",
      filename: "through-ai.txt"
    })
    const id = uploaded.providerReference["studio"]
    expect(id).toMatch(/.+/)
    const metadata = await studio.files().getFileMetadata({ file: { studio: id! } })
    expect(metadata).toMatchObject({ filename: "through-ai.txt", byteSize: 20 })
  })

  it("embedding and image models are NoSuchModelError", () => {
    expect(() => studio.embeddingModel("any")).toThrow(NoSuchModelError)
    expect(() => studio.imageModel("any")).toThrow(NoSuchModelError)
    expect(studio("fpmodel-mini").specificationVersion).toBe("v4")
  })
})
