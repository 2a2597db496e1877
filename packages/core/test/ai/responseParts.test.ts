/**
 * A completion, or its chunks, as response parts: the finish reasons as AI libraries spell them, the choices
 * of a finish part read back as they were written, and a stream's parts the same as those of its completion.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  ChunkParts,
  completionParts,
  completionStreamParts,
  finishReason,
  firstChoice,
  quote,
  type StreamPart,
  toolArgumentsNotJson
} from "../../src/ai/responseParts.js"
import { finishChoicesOf } from "../../src/chat/finishChoices.js"
import type { ChatCompletion, ChatCompletionChoice, ChatCompletionChunk, Usage } from "../../src/wire/chat.js"

const usage: Usage = { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 }

const choice = (index: number, content: string | null, finish: string | null = "stop"): ChatCompletionChoice => ({
  index,
  message: { role: "assistant", content, tool_calls: null },
  logprobs: null,
  finish_reason: finish
})

const completion = (choices: ReadonlyArray<ChatCompletionChoice>): ChatCompletion => ({ id: "c-1", choices, usage })

const usageOf = (usage: Usage | null) => usage === null ? null : usage.total_tokens

describe("responseParts", () => {
  it("spells the finish reasons with a dash; none is unknown, a new one other", () => {
    expect([null, "stop", "length", "tool_calls", "content_filter", "sleepy"].map(finishReason)).toEqual([
      "unknown",
      "stop",
      "length",
      "tool-calls",
      "content-filter",
      "other"
    ])
  })

  it("quotes up to 64 KiB of model output, and cuts longer text with an ellipsis", () => {
    const whole = "x".repeat(64 * 1024)
    expect(quote(whole)).toBe(whole)
    expect(quote(`${whole}y`)).toBe(`${whole}…`)
    expect(toolArgumentsNotJson("lookup", "{")).toBe(`the arguments of a call to the tool "lookup" are not JSON: {`)
  })

  it("takes the choice of index 0, else the first there is", () => {
    expect(firstChoice([{ index: 1 }, { index: 0 }])).toEqual({ index: 0 })
    expect(firstChoice([{ index: 2 }, { index: 1 }])).toEqual({ index: 2 })
    expect(firstChoice([])).toBeUndefined()
  })

  it("makes a completion's metadata, text, tool calls with their parsed arguments, and finish", () => {
    const calling: ChatCompletionChoice = {
      ...choice(0, "", "tool_calls"),
      message: {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "t-1", type: "function", function: { name: "a", arguments: "{}" } },
          { id: "t-2", type: "function", function: { name: "b", arguments: "[1]" } }
        ]
      }
    }
    expect(completionParts(completion([calling]), calling, { model: "m", usage: 8, params: [{}, [1]] })).toEqual([
      { type: "response-metadata", id: "c-1", modelId: "m" },
      { type: "tool-call", id: "t-1", name: "a", params: {} },
      { type: "tool-call", id: "t-2", name: "b", params: [1] },
      { type: "finish", reason: "tool-calls", usage: 8 }
    ])
  })

  it("puts every choice in the finish part's metadata when there are several, as finishChoicesOf reads them", () => {
    const choices = [choice(0, "a"), choice(1, null, null), choice(2, "c", "length")]
    const parts = completionParts(completion(choices), choices[0]!, { model: "m", usage: 8, params: [] })
    const finish = parts.at(-1)!
    expect(finish.type === "finish" && finishChoicesOf(finish.metadata)).toEqual([
      { index: 0, content: "a", finishReason: "stop" },
      { index: 1, content: null, finishReason: null },
      { index: 2, content: "c", finishReason: "length" }
    ])
    const single = completionParts(completion([choice(0, "a")]), choice(0, "a"), { model: "m", usage: 8, params: [] })
    expect(single.at(-1)).not.toHaveProperty("metadata")
  })

  it("property: a stream's parts are those of its completion given as a stream, the text cut in deltas", () =>
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 6 }),
        fc.constantFrom<string | null>(null, "stop", "length", "content_filter"),
        fc.boolean(),
        (pieces, finish, withUsage) => {
          const chunks: Array<ChatCompletionChunk> = pieces.map((piece, i) => ({
            id: "c-1",
            choices: [
              { index: 0, delta: { content: piece }, finish_reason: i === pieces.length - 1 ? finish : null },
              { index: 1, delta: { content: "other" }, finish_reason: null }
            ],
            usage: withUsage && i === pieces.length - 1 ? usage : null
          }))
          const stream = new ChunkParts("m", usageOf)
          const streamed = [...chunks.flatMap((chunk) => stream.add(chunk)), ...stream.end()]
          const text = pieces.join("")
          const whole = choice(0, text, pieces.length === 0 ? null : finish)
          const parts = completionParts(completion([whole]), whole, {
            model: "m",
            usage: withUsage && pieces.length > 0 ? usage.total_tokens : null,
            params: []
          })
          const joined = (parts: ReadonlyArray<StreamPart<number | null>>) =>
            parts.flatMap((part): Array<unknown> =>
              part.type === "text-delta" ? [] : part.type === "text-start" ? [{ type: "text", text }] : [part]
            )
          expect(streamed.filter((part) => part.type === "text-delta").map((part) => part.delta)).toEqual(
            pieces.filter((piece) => piece !== "")
          )
          if (pieces.length === 0) {
            expect(streamed).toEqual([{ type: "finish", reason: "unknown", usage: null }])
          } else {
            expect(joined(streamed)).toEqual(joined(completionStreamParts(parts, "c-1")))
          }
        }
      )
    ))
})
