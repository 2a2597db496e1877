/**
 * What a durable workflow sends between cluster runners and stores: its payload, its activities' results
 * and its errors, written by the serializations Effect Cluster uses on this line (the canonical JSON codec,
 * as `NodeClusterSocket` with `serialization: "ndjson"` and the SQL message storage write them) and read back
 * equal.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import { BatchSchema, ChatSchema, MaestroSchema, StudioError } from "studio-effect"
import { DurableMaestro } from "studio-effect/workflow"

const roundTrips = <S extends Schema.Codec<unknown, unknown>>(schema: S, input: unknown) => {
  const value = Schema.decodeUnknownSync(schema)(input)
  const json = Schema.toCodecJson(schema)
  expect(Schema.decodeUnknownSync(json)(JSON.parse(JSON.stringify(Schema.encodeSync(json)(value))))).toEqual(value)
}

describe("durable workflows' values on the wire of a cluster", () => {
  it("DurableMaestro.Workflow's payload", () =>
    roundTrips(DurableMaestro.Workflow.payloadSchema, {
      key: "order-1",
      request: {
        input: "Plan a lighthouse visit",
        budget: "high",
        requirements: [{ name: "short", description: "at most 100 words" }],
        tools: [{ type: "web_search", urls: ["https://example.com"] }]
      }
    }))

  it("a chat request and completion (a durable tool loop's rounds)", () => {
    roundTrips(ChatSchema.ChatRequest, {
      model: "fpmodel-mini",
      messages: [{ role: "user", content: "What is the weather in Paris?" }],
      tools: [{
        type: "function",
        function: { name: "weather", description: "The weather of a city", parameters: { type: "object" } }
      }]
    })
    roundTrips(ChatSchema.ChatCompletion, {
      id: "chat-1",
      model: "fpmodel-mini",
      choices: [{
        index: 0,
        message: {
          role: "assistant",
          content: "",
          tool_calls: [{
            id: "call-1",
            type: "function",
            function: { name: "weather", arguments: "{\"city\":\"Paris\"}" }
          }]
        },
        finish_reason: "tool_calls"
      }],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 }
    })
  })

  it("a run and a StudioError", () => {
    roundTrips(MaestroSchema.MaestroRun, { id: "run-1", status: "completed", result: "done" })
    roundTrips(StudioError.StudioError, { _tag: "PollTimeout", runId: "run-1" })
  })

  it("a batch (a durably waited batch's create and retrieves) and the timeout that carries it", () => {
    const batch = {
      id: "batch-1",
      status: "PROCESSING",
      endpoint: "/v1/chat/completions",
      created_at: 1_700_000_000,
      completed_at: null,
      request_counts: { total: 3, completed: 1, failed: 0 },
      metadata: { team: "docs" }
    }
    roundTrips(BatchSchema.Batch, batch)
    roundTrips(StudioError.StudioError, { _tag: "PollTimeout", runId: "batch-1", lastBatch: batch })
  })
})
