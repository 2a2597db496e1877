/**
 * The chat request of `chat`'s options: each field only when its option is given.
 */
import { describe, expect, it } from "vitest"
import { chatRequest } from "../../src/cli/chat.js"

const bare = { model: "m", prompt: "Hi", stop: [], documents: [], jsonMode: false }

describe("chatRequest", () => {
  it("is the model and the prompt alone when no option is given", () => {
    expect(chatRequest(bare)).toEqual({ model: "m", messages: [{ role: "user", content: "Hi" }] })
  })

  it("maps every option to its field", () => {
    expect(
      chatRequest({
        ...bare,
        system: "Be brief",
        temperature: 0.5,
        topP: 0.9,
        maxTokens: 7,
        stop: ["END", "STOP"],
        documents: [{ id: "notes.md", content: "Review on Monday" }],
        jsonMode: true
      })
    ).toEqual({
      model: "m",
      messages: [{ role: "system", content: "Be brief" }, { role: "user", content: "Hi" }],
      temperature: 0.5,
      top_p: 0.9,
      max_tokens: 7,
      stop: ["END", "STOP"],
      documents: [{ id: "notes.md", content: "Review on Monday" }],
      response_format: { type: "json_object" }
    })
  })
})
