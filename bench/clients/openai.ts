/**
 * The `openai` npm SDK pointed at the service's OpenAI-compatible path.
 */
import OpenAI from "openai"
import { apiKey, chatRequest } from "../fixtures.js"
import { type BenchClient, pool } from "./BenchClient.js"

const clients = new Map<string, OpenAI>()
const clientFor = (origin: string): OpenAI => {
  let client = clients.get(origin)
  if (client === undefined) {
    client = new OpenAI({ apiKey, baseURL: origin + "/studio/v1", maxRetries: 2 })
    clients.set(origin, client)
  }
  return client
}

export const client: BenchClient = {
  requests: (target, count, concurrency, onContent) => {
    const openai = clientFor(target.origin)
    return pool(count, concurrency, async () => {
      const response = await openai.chat.completions.create(chatRequest)
      onContent(response.choices[0]!.message.content!)
    })
  },
  streams: (target, count, concurrency, onToken) => {
    const openai = clientFor(target.origin)
    return pool(count, concurrency, async () => {
      const stream = await openai.chat.completions.create({ ...chatRequest, stream: true })
      for await (const chunk of stream) {
        const content = chunk.choices[0]?.delta?.content
        if (content) onToken(content)
      }
    })
  }
}
