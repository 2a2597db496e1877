/**
 * A bench client of any AI SDK provider through `ai` 7's own functions, as an application of the AI SDK
 * writes it: `generateText` for requests, `streamText` for streams. No retries (`maxRetries: 0`), like the
 * other clients' single attempt per call when nothing fails. The model of an origin is made once.
 */
import { generateText, type LanguageModel, streamText } from "ai"
import { chatRequest } from "../fixtures.js"
import { type BenchClient, pool } from "./BenchClient.js"

const prompt = chatRequest.messages[0]!.content

export const aiSdkClient = (modelAt: (origin: string) => LanguageModel): BenchClient => {
  const models = new Map<string, LanguageModel>()
  const modelFor = (origin: string): LanguageModel => {
    let model = models.get(origin)
    if (model === undefined) {
      model = modelAt(origin)
      models.set(origin, model)
    }
    return model
  }
  return {
    requests: (target, count, concurrency, onContent) => {
      const model = modelFor(target.origin)
      return pool(count, concurrency, async () => {
        const { text } = await generateText({ model, prompt, maxRetries: 0 })
        onContent(text)
      })
    },
    streams: (target, count, concurrency, onToken) => {
      const model = modelFor(target.origin)
      return pool(count, concurrency, async () => {
        const result = streamText({ model, prompt, maxRetries: 0 })
        // the full stream rather than `textStream`, which ends quietly on an error
        for await (const part of result.fullStream) {
          if (part.type === "text-delta") {
            if (part.text !== "") onToken(part.text)
          } else if (part.type === "error") {
            throw part.error
          }
        }
      })
    }
  }
}
