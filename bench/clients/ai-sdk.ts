/**
 * `studio-effect-ai-sdk` through `ai` 7's own functions, as an application of the AI SDK writes it:
 * `generateText` for requests, `streamText` (its `textStream`) for streams. No retries (`maxRetries: 0`),
 * like the other clients' single attempt per call when nothing fails.
 */
import { generateText, streamText } from "ai"
import { createStudio, type StudioProvider } from "studio-effect-ai-sdk"
import { apiKey, chatRequest } from "../fixtures.js"
import { type BenchClient, pool } from "./BenchClient.js"

const providers = new Map<string, StudioProvider>()
const providerFor = (origin: string): StudioProvider => {
  let provider = providers.get(origin)
  if (provider === undefined) {
    // the provider bounds a whole stream by maxResponseSize (32 MiB by default); the long streams are larger
    provider = createStudio({ apiKey, baseURL: origin, maxResponseSize: 256 * 1024 * 1024 })
    providers.set(origin, provider)
  }
  return provider
}

const prompt = chatRequest.messages[0]!.content

export const client: BenchClient = {
  requests: (target, count, concurrency, onContent) => {
    const model = providerFor(target.origin)(chatRequest.model)
    return pool(count, concurrency, async () => {
      const { text } = await generateText({ model, prompt, maxRetries: 0 })
      onContent(text)
    })
  },
  streams: (target, count, concurrency, onToken) => {
    const model = providerFor(target.origin)(chatRequest.model)
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
