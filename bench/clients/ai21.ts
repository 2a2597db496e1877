/**
 * The official `ai21` npm SDK.
 */
import { AI21 } from "ai21"
import { apiKey, chatRequest } from "../fixtures.js"
import { type BenchClient, pool } from "./BenchClient.js"

const clients = new Map<string, AI21>()
const clientFor = (origin: string): AI21 => {
  let client = clients.get(origin)
  if (client === undefined) {
    client = new AI21({ apiKey, baseURL: origin + "/studio/v1", maxRetries: 2 })
    clients.set(origin, client)
  }
  return client
}

export const client: BenchClient = {
  requests: (target, count, concurrency, onContent) => {
    const ai21 = clientFor(target.origin)
    return pool(count, concurrency, async () => {
      const response = await ai21.chat.completions.create(chatRequest)
      onContent(response.choices[0]!.message.content!)
    })
  },
  streams: (target, count, concurrency, onToken) => {
    const ai21 = clientFor(target.origin)
    return pool(count, concurrency, async () => {
      const stream = await ai21.chat.completions.create({ ...chatRequest, stream: true })
      for await (const chunk of stream) {
        const content = chunk.choices[0]?.delta?.content
        if (content) onToken(content)
      }
    })
  }
}
