/**
 * The model's reasoning (`reasoning_content`) from end to end in the core: the built-in model of the
 * reference service shows it on its reasoning model, a completion and its stream carry it, the accumulator
 * adds it up to what the completion says, the deltas give it alone, and the AI response parts hold it.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ChunkParts, completionParts, completionStreamParts } from "../src/ai/responseParts.js"
import { CompletionAccumulator } from "../src/chat/CompletionAccumulator.js"
import { firstChoiceText } from "../src/chat/deltas.js"
import { builtIn, type ModelRequest, reasoningModels, type Reply } from "../src/reference/builtInModel.js"
import { chunksOf, completion, generate } from "../src/reference/chat.js"
import { makeIds } from "../src/reference/ids.js"
import type { ChatCompletionChunk } from "../src/wire/chat.js"

const ask = (model: string, content: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model,
  messages: [{ role: "user", content }],
  ...extra
})
const context = { index: 0, seed: 0, purpose: "chat" as const }
const accumulated = (chunks: Iterable<ChatCompletionChunk>) => {
  const accumulator = new CompletionAccumulator()
  for (const chunk of chunks) accumulator.add(chunk)
  return accumulator.completion()
}
const sent = (request: ModelRequest, reply: Reply) => {
  const generated = generate(request, [reply], makeIds(1))
  const chunks = [...chunksOf(generated)].map((chunk): ChatCompletionChunk => ({
    ...chunk,
    usage: chunk.usage ?? null
  }))
  return { whole: completion(generated), chunks }
}

describe("reasoning", () => {
  it("the built-in model reasons on its reasoning model only, about what it was asked", () => {
    expect(reasoningModels).toEqual(["fpmodel-large"])
    const large = builtIn(ask("fpmodel-large", "Is it raining?"), context)
    expect(typeof large === "object" && large.reasoning).toMatch(/^The request is "Is it raining\?"; /)
    expect(typeof builtIn(ask("fpmodel-mini", "Is it raining?"), context)).toBe("string")
    const tools = [{ type: "function" as const, function: { name: "get_weather", description: "The weather" } }]
    const calling = builtIn(ask("fpmodel-large", "The weather?", { tools }), context)
    expect(calling).toMatchObject({ reasoning: expect.stringContaining("the get_weather tool can answer it") })
    // a run's draft shows none: runs have no reasoning in their answer
    expect(typeof builtIn(ask("fpmodel-large", "Is it raining?"), { ...context, purpose: "run" })).toBe("string")
  })

  it("property: a stream carries the reasoning before the content, and adds up to the completion", () =>
    fc.assert(fc.property(
      fc.string({ maxLength: 40 }),
      fc.string({ maxLength: 40 }),
      fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      (reasoning, content, maxTokens) => {
        const request = ask("fpmodel-mini", "q", maxTokens === undefined ? {} : { max_tokens: maxTokens })
        const { chunks, whole } = sent(request, { content, reasoning })
        expect(accumulated(chunks)).toEqual({ ...whole, choices: whole.choices.map((c) => ({ ...c, logprobs: null })) })
        const thoughts = chunks.flatMap((chunk) => firstChoiceText(chunk, "reasoning_content") ?? [])
        const texts = chunks.flatMap((chunk) => firstChoiceText(chunk, "content") ?? [])
        // max_tokens bounds the reasoning and the content together, the reasoning first; both are counted
        const shown = whole.choices[0]!.message.reasoning_content ?? ""
        expect(reasoning.startsWith(shown)).toBe(true)
        expect(thoughts.join("")).toBe(shown)
        if (maxTokens === undefined) expect(shown).toBe(reasoning)
        else expect(whole.usage.completion_tokens).toBeLessThanOrEqual(maxTokens)
        if (maxTokens === 0) expect(whole.choices[0]!.message).not.toHaveProperty("reasoning_content")
        expect(texts.join("")).toBe(whole.choices[0]!.message.content)
        const kinds = chunks.map((chunk) => firstChoiceText(chunk, "reasoning_content") !== undefined)
        const lastThought = kinds.lastIndexOf(true)
        const firstText = chunks.findIndex((chunk) => firstChoiceText(chunk, "content") !== undefined)
        if (lastThought !== -1 && firstText !== -1) expect(lastThought).toBeLessThan(firstText)
        expect(whole.usage.completion_tokens).toBe(thoughts.length + texts.length)
      }
    )))

  it("the accumulator counts reasoning in its size, and a completion without reasoning has no such field", () => {
    const accumulator = new CompletionAccumulator()
    const chunk = (delta: Record<string, string>): ChatCompletionChunk => ({
      id: "c",
      choices: [{ index: 0, delta, finish_reason: null }],
      usage: null
    })
    accumulator.add(chunk({ content: "ab" }))
    const before = accumulator.size
    expect(accumulator.completion().choices[0]!.message).not.toHaveProperty("reasoning_content")
    accumulator.add(chunk({ reasoning_content: "xyz" }))
    expect(accumulator.size).toBe(before + 3)
    expect(accumulator.completion().choices[0]!.message.reasoning_content).toBe("xyz")
  })

  it("response parts: reasoning before the text, whole and streamed, and a stream's parts match its completion's", () => {
    const { chunks, whole } = sent(ask("fpmodel-mini", "q"), { content: "It rains.", reasoning: "Look outside." })
    const parts = completionParts(whole, whole.choices[0]!, { model: "m", usage: 1, params: [] })
    expect(parts.map((part) => part.type)).toEqual(["response-metadata", "reasoning", "text", "finish"])
    expect(parts[1]).toEqual({ type: "reasoning", text: "Look outside." })
    const stream = new ChunkParts("m", () => 1)
    const streamed = [...chunks.flatMap((chunk) => stream.add(chunk)), ...stream.end()]
    const kinds = [...new Set(streamed.map((part) => part.type))]
    expect(kinds).toEqual([
      "response-metadata",
      "reasoning-start",
      "reasoning-delta",
      "reasoning-end",
      "text-start",
      "text-delta",
      "text-end",
      "finish"
    ])
    const deltas = (type: string) =>
      streamed.flatMap((part) => part.type === type && "delta" in part ? [part.delta] : []).join("")
    expect(deltas("reasoning-delta")).toBe("Look outside.")
    expect(deltas("text-delta")).toBe("It rains.")
    expect(completionStreamParts(parts, whole.id).map((part) => part.type)).toEqual(kinds)
  })

  it("a stream that reasons again after its text opens a new reasoning part, and the end closes it", () => {
    const stream = new ChunkParts("m", () => 1)
    const chunk = (delta: Record<string, string>): ChatCompletionChunk => ({
      id: "c",
      choices: [{ index: 0, delta, finish_reason: null }],
      usage: null
    })
    const parts = [
      ...stream.add(chunk({ reasoning_content: "a" })),
      ...stream.add(chunk({ content: "b" })),
      ...stream.add(chunk({ reasoning_content: "c" })),
      ...stream.end()
    ].map((part) => part.type)
    expect(parts).toEqual([
      "response-metadata",
      "reasoning-start",
      "reasoning-delta",
      "reasoning-end",
      "text-start",
      "text-delta",
      "reasoning-start",
      "reasoning-delta",
      "reasoning-end",
      "text-end",
      "finish"
    ])
  })
})
