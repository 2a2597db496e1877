/**
 * `Chat.runTools` against a scripted server whose answers no model would give: an answer with 20,000 tool
 * calls, one that names the same call id 1,000 times, and one that names again an id already answered. Each
 * ends the loop with a typed `ToolCallError` before any handler of that round runs, and sends nothing back.
 */
import { describe, Effect, expect, it } from "@studio-effect/line"
import { Chat, StudioError } from "studio-effect"
import { clientOf, testServer } from "../support/testServer.js"

const tools = [{
  type: "function" as const,
  function: { name: "send", description: "Sends a message", parameters: { type: "object" as const, properties: {} } }
}]
const request = { model: "fpmodel-mini", messages: [{ role: "user" as const, content: "Send it" }], tools }

/** A completion that calls `send` once per id. */
const calling = (ids: ReadonlyArray<string>) => ({
  json: {
    id: "chat-1",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "send", arguments: "{}" } }))
      },
      finish_reason: "tool_calls"
    }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
  }
})
const final = {
  json: {
    id: "chat-2",
    choices: [{ index: 0, message: { role: "assistant", content: "Sent" }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
  }
}

describe("Chat.runTools against answers no model would give", () => {
  it.effect("20,000 calls in one answer: TooManyCalls past maxCallsPerRound (16 by default), no handler run", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => calling(Array.from({ length: 20_000 }, (_, i) => `call_${i}`)))
      let ran = 0
      const error = yield* Effect.flip(
        Chat.runTools(request, { send: () => Effect.sync(() => ran++) }, { maxRounds: 3 }).pipe(
          Effect.provide(clientOf(server.url))
        )
      )
      expect(error).toBeInstanceOf(Chat.ToolCallError)
      expect(error).toMatchObject({ reason: "TooManyCalls", calls: 20_000, toolCallId: "call_16", round: 1 })
      expect((error as Error).message).toContain("raise maxCallsPerRound")
      expect(ran).toBe(0)
      expect(server.requests.length).toBe(1)
    }))

  it.effect("maxCallsPerRound raises the bound, within 1 to 128", () =>
    Effect.gen(function*() {
      const server = yield* testServer((_, index) =>
        index === 0 ? calling(Array.from({ length: 20 }, (_, i) => `call_${i}`)) : final
      )
      let ran = 0
      const result = yield* Chat.runTools(request, { send: () => Effect.sync(() => ran++) }, {
        maxCallsPerRound: 20
      }).pipe(Effect.provide(clientOf(server.url)))
      expect(result.finished).toBe(true)
      expect(ran).toBe(20)
      for (const maxCallsPerRound of [0, 129, 2.5]) {
        const refused = yield* Effect.flip(
          Chat.runTools(request, {}, { maxCallsPerRound }).pipe(Effect.provide(clientOf(server.url)))
        )
        expect(refused).toBeInstanceOf(StudioError.ValidationError)
        expect((refused as StudioError.ValidationError).issues[0]!.path).toBe("maxCallsPerRound")
      }
      expect(server.requests.length).toBe(2)
    }))

  it.effect("one id named 1,000 times in an answer: RepeatedCallId, no handler run, nothing sent back", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => calling(Array.from({ length: 1_000 }, () => "call_same")))
      let ran = 0
      const error = yield* Effect.flip(
        Chat.runTools(request, { send: () => Effect.sync(() => ran++) }, { maxCallsPerRound: 128 }).pipe(
          Effect.provide(clientOf(server.url))
        )
      )
      expect(error).toMatchObject({ _tag: "ToolCallError", reason: "RepeatedCallId", toolCallId: "call_same" })
      expect(ran).toBe(0)
      expect(server.requests.length).toBe(1)
    }))

  it.effect("an id answered in an earlier round and named again: RepeatedCallId in that round", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => calling(["call_1"]))
      let ran = 0
      const error = yield* Effect.flip(
        Chat.runTools(request, { send: () => Effect.sync(() => ran++) }).pipe(Effect.provide(clientOf(server.url)))
      )
      expect(error).toMatchObject({ reason: "RepeatedCallId", toolCallId: "call_1", round: 2 })
      expect(ran).toBe(1)
      expect(server.requests.length).toBe(2)
    }))
})
