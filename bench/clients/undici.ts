/**
 * `undici.request` with `eventsource-parser`: the bare floor, no SDK at all.
 */
import { createParser } from "eventsource-parser"
import { request } from "undici"
import { apiKey, chatRequest } from "../fixtures.js"
import { type BenchClient, chatPath, pool } from "./BenchClient.js"

const headers = { "authorization": `Bearer ${apiKey}`, "content-type": "application/json" }
const plainBody = JSON.stringify(chatRequest)
const streamBody = JSON.stringify({ ...chatRequest, stream: true })

export const client: BenchClient = {
  requests: (target, count, concurrency, onContent) =>
    pool(count, concurrency, async () => {
      const response = await request(target.origin + chatPath, { method: "POST", headers, body: plainBody })
      if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`)
      const json: any = await response.body.json()
      onContent(json.choices[0].message.content)
    }),
  streams: (target, count, concurrency, onToken) =>
    pool(count, concurrency, async () => {
      const response = await request(target.origin + chatPath, { method: "POST", headers, body: streamBody })
      if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`)
      let done = false
      const parser = createParser({
        onEvent: (event) => {
          if (done) return
          if (event.data === "[DONE]") {
            done = true
            return
          }
          const content = JSON.parse(event.data).choices?.[0]?.delta?.content
          if (content) onToken(content)
        }
      })
      const decoder = new TextDecoder()
      for await (const bytes of response.body) {
        parser.feed(decoder.decode(bytes, { stream: true }))
        if (done) break
      }
      if (!done) throw new Error("the stream ended before [DONE]")
    })
}
