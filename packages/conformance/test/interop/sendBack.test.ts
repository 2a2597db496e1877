/**
 * What the service returns can be sent back: for generated requests, every message the reference service
 * answers with, appended to the conversation as it came over the wire (with a tool answer for each tool
 * call), makes a valid next request, for the SDK's schema and for the service. Also the message that
 * `Chat.accumulate` adds up from a stream.
 */
import { decodeOutcome, describe, Effect, expect, isFailure, isSuccess, it, Redacted } from "@studio-effect/line"
import * as fc from "fast-check"
import { Chat, ChatSchema } from "studio-effect"
import { chatModels } from "studio-effect-core/wire/models"
import * as Reference from "studio-effect/reference"
import { call } from "../reference/support.js"
import { validChatTool, validUnstreamedChatRequest } from "../validation/arbitraries.js"
import { validate } from "../validation/support.js"

const decode = decodeOutcome(ChatSchema.ChatRequest)

/** A request the built-in model answers with tool calls about half the time: tools and a user turn last. */
const request = fc.tuple(
  validUnstreamedChatRequest,
  fc.constantFrom(...chatModels),
  fc.array(validChatTool, { maxLength: 2 }),
  fc.boolean()
).map(([request, model, tools, userLast]) => ({
  ...request,
  model,
  tools: [...(request.tools ?? []), ...tools],
  messages: userLast ? [...request.messages, { role: "user", content: "look it up" }] : request.messages
}))

/** The conversation a choice's message continues: the message as it came, and an answer to each tool call. */
const continued = (messages: ReadonlyArray<unknown>, message: any): ReadonlyArray<unknown> => [
  ...messages,
  message,
  ...(Array.isArray(message.tool_calls) ? message.tool_calls : []).map((toolCall: any) => ({
    role: "tool",
    tool_call_id: toolCall.id,
    content: "{\"ok\":true}"
  }))
]

describe("what the service returns is accepted back", () => {
  it("every choice's message, appended with its tool answers, makes a valid next request", async () => {
    let toolCalls = 0
    await fc.assert(
      fc.asyncProperty(request, (sent) =>
        Effect.runPromise(
          Effect.gen(function*() {
            const first = yield* call("POST", "/studio/v1/chat/completions", { body: sent })
            expect(first.status, first.text).toBe(200)
            for (const choice of first.json.choices) {
              toolCalls += choice.message.tool_calls?.length ?? 0
              const next = { ...sent, messages: continued(sent.messages, choice.message) }
              if (isFailure(decode(next))) {
                expect.fail(`not accepted back: ${JSON.stringify(validate(ChatSchema.ChatRequest, next))}`)
              }
              const answer = yield* call("POST", "/studio/v1/chat/completions", { body: next })
              expect(answer.status, answer.text).toBe(200)
            }
          }).pipe(Effect.provide(Reference.layer()))
        )),
      { numRuns: 60 }
    )
    // the property saw tool calls, not only text answers
    expect(toolCalls).toBeGreaterThan(0)
  })

  it("every message Chat.accumulate adds up from a stream, appended to the conversation, makes a valid next request", async () => {
    const streamed = fc.tuple(validUnstreamedChatRequest, fc.constantFrom(...chatModels)).map(([request, model]) => {
      const { tools: _tools, n: _n, ...rest } = request
      return { ...rest, model }
    })
    await fc.assert(
      fc.asyncProperty(streamed, (sent) =>
        Effect.runPromise(
          Effect.gen(function*() {
            const completion = yield* Chat.accumulate(Chat.stream(sent))
            const message = completion.choices[0]!.message
            const next = { ...sent, messages: [...sent.messages, message] }
            if (isFailure(decode(next))) {
              expect.fail(`not accepted back: ${JSON.stringify(validate(ChatSchema.ChatRequest, next))}`)
            }
            const again = yield* Chat.create(next)
            expect(again.choices).toHaveLength(1)
          }).pipe(Effect.provide(Reference.layerClient({ client: { apiKey: Redacted.make("k") } })))
        )),
      { numRuns: 40 }
    )
  })

  it.effect("a completion's message and an accumulated stream's message validate unchanged as request messages", () =>
    Effect.gen(function*() {
      const tool = { type: "function" as const, function: { name: "weather", description: "The weather in a city" } }
      const called = yield* Chat.create({
        model: "fpmodel-mini",
        messages: [{ role: "user", content: "What is the weather in Paris?" }],
        tools: [tool]
      })
      const message = called.choices[0]!.message
      expect(message.content).toBeNull()
      expect(message.tool_calls).not.toBeNull()
      expect(isSuccess(decodeOutcome(ChatSchema.AssistantMessage)(message))).toBe(true)
      const streamed = yield* Chat.accumulate(
        Chat.stream({ model: "fpmodel-mini", messages: [{ role: "user", content: "Hello" }] })
      )
      const text = streamed.choices[0]!.message
      expect(text.tool_calls).toBeNull()
      // both go back as they are, typed as request messages
      const next = yield* Chat.create({
        model: "fpmodel-mini",
        messages: [
          { role: "user", content: "What is the weather in Paris?" },
          message,
          { role: "tool", tool_call_id: message.tool_calls![0]!.id, content: "sunny" },
          { role: "user", content: "Hello" },
          text
        ]
      })
      expect(next.choices[0]!.message.content).toContain("Hello")
    }).pipe(Effect.provide(Reference.layerClient({ client: { apiKey: Redacted.make("k") } }))))

  it("an assistant message with neither content nor tool calls is refused at its content", () => {
    for (
      const message of [
        { role: "assistant" },
        { role: "assistant", content: null },
        { role: "assistant", content: null, tool_calls: null },
        { role: "assistant", tool_calls: [] }
      ]
    ) {
      const result = validate(ChatSchema.ChatRequest, { model: "fpmodel-mini", messages: [message] })
      expect(isFailure(result) && result.failure).toEqual([{
        path: "messages[0].content",
        message: "an assistant message needs content or at least one tool call"
      }])
    }
  })

  it.effect("the service refuses it too, with one entry", () =>
    Effect.gen(function*() {
      const answer = yield* call("POST", "/studio/v1/chat/completions", {
        body: {
          model: "fpmodel-mini",
          messages: [{ role: "user", content: "hi" }, { role: "assistant", content: null }]
        }
      })
      expect(answer.status).toBe(422)
      expect(answer.json.detail).toEqual([{
        loc: ["body", "messages", 1, "content"],
        msg: "an assistant message needs content or at least one tool call",
        type: "value_error"
      }])
    }).pipe(Effect.provide(Reference.layer())))
})
