import { describe, expect, it } from "@studio-effect/line"
import * as fc from "fast-check"
import { setImmediate as nextTurn } from "node:timers/promises"
import { ChatSchema } from "studio-effect"
import { acceptChatRequest } from "studio-effect-core/validate/chatRequest"
import { chatRequest, typicalChatRequest } from "../../../bench/fixtures.js"
import { validChatRequest, validChatTool } from "./validation/arbitraries.js"
import { aroundValid, schemaGives, withEachFieldAdded } from "./validation/mutations.js"

const expectSchemaGives = schemaGives(ChatSchema.ChatRequest)

/** Values at and just past the bounds of the rules of each field, alone and together. */
const fieldEdges = {
  model: fc.constantFrom("", "m"),
  messages: fc.constantFrom(
    [],
    [{ role: "tool", content: "c", tool_call_id: "call-1" }],
    [{ role: "assistant", tool_calls: [{ id: "call-1" }] }, { role: "tool", content: "c", tool_call_id: "call-1" }],
    [{ role: "assistant", tool_calls: [] }],
    [{ role: "assistant", content: "" }]
  ),
  tools: fc.oneof(
    fc.constantFrom([], [{ type: "function", function: { name: "", description: "d" } }]),
    fc.array(validChatTool, { minLength: 1, maxLength: 2 })
  ),
  documents: fc.constantFrom(
    [{ content: "c", metadata: [] }],
    [{ content: "c", metadata: {} }],
    [{ content: "c", metadata: [{ key: "a", value: "1" }, { key: "a", value: "2" }] }]
  ),
  response_format: fc.constantFrom({ type: "json_object" }, { type: "json" }),
  max_tokens: fc.constantFrom(0, 1, 4096, 4097, 1.5),
  temperature: fc.constantFrom(-0.0001, -0, 0, 2, 2.0000001),
  top_p: fc.constantFrom(-0.0001, 0, 1, 1.0000001),
  stop: fc.constantFrom("x".repeat(64 * 1024), "x".repeat(64 * 1024 + 1), ["", "x".repeat(64 * 1024 + 1)]),
  n: fc.constantFrom(0, 1, 2, 16, 17, 2.5),
  stream: fc.boolean()
}

const anyInput = aroundValid(validChatRequest, fieldEdges)

describe("the chat request fast path", () => {
  it("gives exactly what the ChatRequest schema gives, whenever it accepts a request", async () => {
    let accepted = 0
    await fc.assert(
      fc.asyncProperty(anyInput, async (input) => {
        // a turn of the event loop in each run: a process that never turns cannot answer vitest's runner
        await nextTurn()
        const value = acceptChatRequest(input)
        if (value === undefined) return
        accepted++
        expectSchemaGives(input, value)
      }),
      { numRuns: 5_000 }
    )
    // the changes keep some requests valid, which the fast path must take as well
    expect(accepted).toBeGreaterThan(300)
  })

  it("accepts every valid request without a null", () =>
    fc.assert(
      fc.property(validChatRequest, (request) => {
        const value = acceptChatRequest(request)
        expect(value).toBeDefined()
        expectSchemaGives(request, value)
      }),
      { numRuns: 1_000 }
    ))

  it("accepts the requests of the benchmark, as sent and as streamed", () => {
    for (const request of [typicalChatRequest, chatRequest, { ...chatRequest, stream: true }]) {
      const value = acceptChatRequest(request)
      expect(value).toBeDefined()
      expectSchemaGives(request, value)
    }
  })

  it("gives exactly what the schema gives for a full request with any field added anywhere", () => {
    const full = {
      ...typicalChatRequest,
      documents: [...typicalChatRequest.documents, { content: "c", metadata: { source: "map" } }],
      response_format: { type: "text" },
      n: 1,
      stream: false
    }
    expect(acceptChatRequest(full)).toBeDefined()
    for (const input of withEachFieldAdded(full)) {
      const value = acceptChatRequest(input)
      if (value !== undefined) expectSchemaGives(input, value)
    }
  })

  it("takes a document's metadata list as the map it becomes", () => {
    const request = {
      model: "m",
      messages: [{ role: "user", content: "Hi" }],
      documents: [{ content: "c", metadata: [{ key: "b", value: "1" }, { key: "10", value: "2" }] }]
    }
    expect(acceptChatRequest(request)?.documents).toStrictEqual([{ content: "c", metadata: { 10: "2", b: "1" } }])
  })

  it("leaves nulls, unknown fields and keys in another order to the schema or puts them in its order", () => {
    const base = { model: "m", messages: [{ role: "user", content: "Hi" }] }
    expect(acceptChatRequest({ ...base, n: null })).toBeUndefined()
    expect(acceptChatRequest({ ...base, user: "u" })).toBeUndefined()
    expect(JSON.stringify(acceptChatRequest({ n: 2, ...base }))).toBe(JSON.stringify({ ...base, n: 2 }))
  })
})
