/**
 * Raw `fetch` (Node's built-in) with a minimal hand-written SSE parser: what a user writes with no library.
 */
import { apiKey, chatRequest } from "../fixtures.js"
import { type BenchClient, chatPath, pool } from "./BenchClient.js"

const headers = { "authorization": `Bearer ${apiKey}`, "content-type": "application/json" }
const plainBody = JSON.stringify(chatRequest)
const streamBody = JSON.stringify({ ...chatRequest, stream: true })

const contentOf = (json: any): string | undefined => json.choices?.[0]?.delta?.content ?? undefined

export const client: BenchClient = {
  requests: (target, count, concurrency, onContent) =>
    pool(count, concurrency, async () => {
      const response = await fetch(target.origin + chatPath, { method: "POST", headers, body: plainBody })
      if (!response.ok) throw new Error(`status ${response.status}`)
      const json: any = await response.json()
      onContent(json.choices[0].message.content)
    }),
  streams: (target, count, concurrency, onToken) =>
    pool(count, concurrency, async () => {
      const response = await fetch(target.origin + chatPath, { method: "POST", headers, body: streamBody })
      if (!response.ok || response.body === null) throw new Error(`status ${response.status}`)
      const decoder = new TextDecoder()
      let buffer = ""
      let done = false
      for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(bytes, { stream: true })
        let end: number
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const event = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          if (!event.startsWith("data: ")) continue
          const data = event.slice(6)
          if (data === "[DONE]") {
            done = true
            break
          }
          const content = contentOf(JSON.parse(data))
          if (content) onToken(content)
        }
        if (done) break
      }
      if (!done) throw new Error("the stream ended before [DONE]")
    })
}
