/**
 * `@ai-sdk/openai-compatible` 3.0.92 (the AI SDK's generic provider, `LanguageModelV4`) pointed at the same
 * server (base URL `.../studio/v1`), through the same `ai` 7 functions as `ai-sdk.ts`: the peer of the
 * Studio provider within the AI SDK.
 */
import { createOpenAICompatible, type OpenAICompatibleProvider } from "@ai-sdk/openai-compatible"
import { generateText, streamText } from "ai"
import { apiKey, chatRequest } from "../fixtures.js"
import { type BenchClient, pool } from "./BenchClient.js"

const providers = new Map<string, OpenAICompatibleProvider>()
const providerFor = (origin: string): OpenAICompatibleProvider => {
  let provider = providers.get(origin)
  if (provider === undefined) {
    provider = createOpenAICompatible({ name: "studio", apiKey, baseURL: origin + "/studio/v1" })
    providers.set(origin, provider)
  }
  return provider
}

const prompt = chatRequest.messages[0]!.content

export const client: BenchClient = {
  requests: (target, count, concurrency, onContent) => {
    const model = providerFor(target.origin).chatModel(chatRequest.model)
    return pool(count, concurrency, async () => {
      const { text } = await generateText({ model, prompt, maxRetries: 0 })
      onContent(text)
    })
  },
  streams: (target, count, concurrency, onToken) => {
    const model = providerFor(target.origin).chatModel(chatRequest.model)
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
