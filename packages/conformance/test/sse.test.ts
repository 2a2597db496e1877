import {
  chunkSizes,
  collect,
  describe,
  Effect,
  expect,
  HttpClient,
  HttpClientResponse,
  isFailure,
  it,
  Layer,
  outcome,
  Redacted
} from "@studio-effect/line"
import * as fc from "fast-check"
import { Chat, StudioClient } from "studio-effect"
import { splitAt } from "../../core/test/support/bytes.js"

const encoder = new TextEncoder()

const lineEnding = fc.constantFrom("\n", "\r\n", "\r")

const id = "chat-00000000000000000000000000000000"
const chunkJson = (delta: Record<string, unknown>, finish: string | null = null, usage?: unknown) =>
  JSON.stringify({
    id,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(usage === undefined ? {} : { usage })
  })

/** A client whose transport answers every request with the given body parts, each its own read. */
const clientWithBody = (parts: ReadonlyArray<Uint8Array>) =>
  StudioClient.layer({ apiKey: Redacted.make("k"), maxRetries: 0 }).pipe(
    Layer.provide(Layer.succeed(
      HttpClient.HttpClient,
      HttpClient.make((request) =>
        Effect.succeed(HttpClientResponse.fromWeb(
          request,
          new Response(
            new ReadableStream({
              start(controller) {
                for (const part of parts) controller.enqueue(part)
                controller.close()
              }
            }),
            { status: 200, headers: { "content-type": "text/event-stream" } }
          )
        ))
      )
    ))
  )

describe("Chat.stream framing", () => {
  const tokens = fc.array(fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 30 })

  it.effect("decodes the same chunks at any split of the body, and accumulates the full text", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(tokens, fc.array(fc.nat(), { maxLength: 30 }), lineEnding, async (words, offsets, eol) => {
          const usage = { prompt_tokens: 1, completion_tokens: words.length, total_tokens: 1 + words.length }
          const events = [
            chunkJson({ role: "assistant" }),
            ...words.map((w) => chunkJson({ content: w })),
            chunkJson({ content: "" }, "stop", usage),
            "[DONE]"
          ]
          const bytes = encoder.encode(events.map((e) => `data: ${e}${eol}${eol}`).join(""))
          const completion = await Effect.runPromise(
            Chat.stream({ model: "fpmodel-mini", messages: [{ role: "user", content: "x" }] }).pipe(
              Chat.accumulate,
              Effect.provide(clientWithBody(splitAt(bytes, offsets)))
            )
          )
          expect(completion.choices[0]!.message.content).toBe(words.join(""))
          expect(completion.choices[0]!.finish_reason).toBe("stop")
          expect(completion.usage).toEqual(usage)
        }),
        { numRuns: 100 }
      )
    ))

  it.effect("the first two outputs go downstream alone, the rest of their read as one chunk, as each later read", () =>
    Effect.gen(function*() {
      const event = (content: string) => `data: ${chunkJson({ content })}\n\n`
      const first = `data: ${chunkJson({ role: "assistant" })}\n\n` + ["a", "b", "c", "d", "e", "f"].map(event).join("")
      const second = ["g", "h", "i"].map(event).join("") + "data: [DONE]\n\n"
      const sizes = yield* Chat.stream({ model: "fpmodel-mini", messages: [{ role: "user", content: "x" }] }).pipe(
        chunkSizes,
        collect,
        Effect.provide(clientWithBody([encoder.encode(first), encoder.encode(second)]))
      )
      expect(sizes).toEqual([1, 1, 5, 3])
    }))

  it.effect("the stream's first two outputs go alone whatever reads they come in", () =>
    Effect.gen(function*() {
      const event = (content: string) => `data: ${chunkJson({ content })}\n\n`
      const reads = [
        `data: ${chunkJson({ role: "assistant" })}\n\n`,
        ["a", "b", "c", "d", "e", "f"].map(event).join(""),
        ["g", "h", "i"].map(event).join("") + "data: [DONE]\n\n"
      ]
      const sizes = yield* Chat.stream({ model: "fpmodel-mini", messages: [{ role: "user", content: "x" }] }).pipe(
        chunkSizes,
        collect,
        Effect.provide(clientWithBody(reads.map((read) => encoder.encode(read))))
      )
      expect(sizes).toEqual([1, 1, 5, 3])
    }))

  it.effect("merges tool-call arguments by index", () =>
    Effect.gen(function*() {
      const events = [
        chunkJson({ role: "assistant" }),
        chunkJson({
          tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: "" } }]
        }),
        chunkJson({
          tool_calls: [{
            index: 1,
            id: "call_b",
            type: "function",
            function: { name: "get_time", arguments: "{\"tz\"" }
          }]
        }),
        chunkJson({ tool_calls: [{ index: 0, function: { arguments: "{\"city\":" } }] }),
        chunkJson({ tool_calls: [{ index: 0, function: { arguments: "\"Oslo\"}" } }] }),
        chunkJson({ tool_calls: [{ index: 1, function: { arguments: ":\"UTC\"}" } }] }),
        chunkJson({}, "tool_calls", { prompt_tokens: 4, completion_tokens: 9, total_tokens: 13 }),
        "[DONE]"
      ]
      const body = encoder.encode(events.map((e) => `data: ${e}\n\n`).join(""))
      const completion = yield* Chat.stream({ model: "fpmodel-mini", messages: [{ role: "user", content: "x" }] })
        .pipe(Chat.accumulate, Effect.provide(clientWithBody([body])))
      expect(completion.choices[0]!.message.tool_calls).toEqual([
        { id: "call_a", type: "function", function: { name: "get_weather", arguments: "{\"city\":\"Oslo\"}" } },
        { id: "call_b", type: "function", function: { name: "get_time", arguments: "{\"tz\":\"UTC\"}" } }
      ])
      expect(completion.choices[0]!.finish_reason).toBe("tool_calls")
    }))

  it.effect("fails with DecodeError on an event that is not JSON, and stops at [DONE]", () =>
    Effect.gen(function*() {
      const bad = yield* Chat.stream({ model: "m", messages: [{ role: "user", content: "x" }] }).pipe(
        collect,
        outcome,
        Effect.provide(clientWithBody([encoder.encode("data: {not json\n\n")]))
      )
      expect(isFailure(bad) && bad.failure._tag).toBe("DecodeError")
      const afterDone = yield* Chat.stream({ model: "m", messages: [{ role: "user", content: "x" }] }).pipe(
        Chat.textDeltas,
        collect,
        Effect.provide(clientWithBody([
          encoder.encode(`data: ${chunkJson({ content: "a" })}\n\ndata: [DONE]\n\ndata: {garbage\n\n`)
        ]))
      )
      expect(afterDone).toEqual(["a"])
    }))
})
