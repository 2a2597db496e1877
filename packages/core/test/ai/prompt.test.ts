/**
 * A prompt, its tool choice and a response format as the fields of a chat request, and what cannot be sent.
 */
import { describe, expect, it } from "vitest"
import {
  chatMessages,
  fileRefusal,
  objectInstruction,
  type Prompt,
  type ToolChoice,
  toolChoiceRefusal
} from "../../src/ai/prompt.js"

const conversation: Prompt = {
  content: [
    { role: "system", content: "Be brief." },
    { role: "user", content: [{ type: "text", text: "Weather?" }, { type: "text", text: "In Oslo." }] },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "Oslo needs a lookup; " },
        { type: "reasoning", text: "call weather." },
        { type: "tool-call", id: "t-1", name: "weather", params: { city: "Oslo" }, providerExecuted: false },
        { type: "tool-call", id: "t-2", name: "search", params: {}, providerExecuted: true },
        { type: "tool-result", id: "t-2", result: "done" },
        { type: "tool-approval-request" }
      ]
    },
    {
      role: "tool",
      content: [{ type: "tool-result", id: "t-1", result: undefined }, { type: "tool-approval-response" }]
    },
    { role: "assistant", content: [{ type: "text", text: "Cold" }, { type: "text", text: "." }] }
  ]
}

describe("prompt", () => {
  it("makes chat messages: user text joined by lines, reasoning, tool calls the service did not execute, tool results", () => {
    expect(fileRefusal(conversation)).toBeUndefined()
    expect(chatMessages(conversation)).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather?\nIn Oslo." },
      {
        role: "assistant",
        tool_calls: [{ id: "t-1", type: "function", function: { name: "weather", arguments: "{\"city\":\"Oslo\"}" } }],
        reasoning_content: "Oslo needs a lookup; call weather."
      },
      { role: "tool", tool_call_id: "t-1", content: "null" },
      { role: "assistant", content: "Cold." }
    ])
  })

  it("sends an assistant message with nothing to send as empty content", () => {
    expect(chatMessages({ content: [{ role: "assistant", content: [{ type: "tool-approval-request" }] }] })).toEqual([
      { role: "assistant", content: "" }
    ])
  })

  it("refuses the first file part, of a user or an assistant message", () => {
    const file = (mediaType: string) => ({ type: "file" as const, mediaType })
    expect(fileRefusal({
      content: [
        { role: "user", content: [{ type: "text", text: "see" }, file("image/png")] },
        { role: "assistant", content: [file("application/pdf")] }
      ]
    })).toBe("the Studio chat models read text only: a file part (image/png) cannot be sent")
    expect(fileRefusal({ content: [{ role: "assistant", content: [file("application/pdf")] }] })).toContain(
      "(application/pdf)"
    )
  })

  it("refuses exactly the tool choices that force a call", () => {
    const choices: ReadonlyArray<[ToolChoice, boolean]> = [
      ["auto", false],
      ["none", false],
      ["required", true],
      [{ tool: "weather" }, true],
      [{ oneOf: ["weather"] }, false],
      [{ mode: "auto", oneOf: ["weather"] }, false],
      [{ mode: "required", oneOf: ["weather"] }, true]
    ]
    for (const [choice, refused] of choices) {
      expect(toolChoiceRefusal(choice) !== undefined, JSON.stringify(choice)).toBe(refused)
    }
  })

  it("asks for a structured answer with its name, description and JSON Schema last", () => {
    const schema = { type: "object", properties: { city: { type: "string" } } }
    expect(objectInstruction({ objectName: "Forecast", description: "A forecast", jsonSchema: schema })).toEqual({
      role: "system",
      content: [
        "Answer with a single JSON value named \"Forecast\", and nothing else (no prose, no code fence).",
        "It is: A forecast",
        "It must be valid against this JSON Schema:",
        JSON.stringify(schema)
      ].join("\n")
    })
    const unnamed = objectInstruction({ objectName: "generateObject", description: undefined, jsonSchema: {} })
    expect(unnamed.content.split("\n")[0]).toBe(
      "Answer with a single JSON value, and nothing else (no prose, no code fence)."
    )
    expect(unnamed.content).not.toContain("It is:")
  })
})
