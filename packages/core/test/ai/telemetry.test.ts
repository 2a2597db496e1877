/**
 * The GenAI attributes of a request and its completion: stop sequences as a list, and the service's texts
 * checked before a span carries them.
 */
import { describe, expect, it } from "vitest"
import { completionAttributes, requestAttributes } from "../../src/ai/telemetry.js"

describe("telemetry", () => {
  it("gives a request's chat parameters, its stop sequences as a list", () => {
    expect(requestAttributes({ model: "m", temperature: 0.5, top_p: null, max_tokens: 10, stop: "END" })).toEqual({
      model: "m",
      temperature: 0.5,
      topP: null,
      maxTokens: 10,
      stopSequences: ["END"]
    })
    expect(requestAttributes({ model: "m", stop: ["a", "b"] }).stopSequences).toEqual(["a", "b"])
    expect(requestAttributes({ model: "m", stop: null }).stopSequences).toBeUndefined()
  })

  it("checks the completion's id and reasons, a missing reason being unknown", () => {
    const completion = {
      id: "c-1",
      choices: [{ finish_reason: "stop" }, { finish_reason: null }],
      usage: { prompt_tokens: 3, completion_tokens: 5 }
    }
    expect(completionAttributes(completion, (text) => text.toUpperCase())).toEqual({
      response: { id: "C-1", finishReasons: ["STOP", "UNKNOWN"] },
      usage: { inputTokens: 3, outputTokens: 5 }
    })
  })
})
