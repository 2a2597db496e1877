/**
 * Forwarding a chat stream from an HTTP handler to a browser. The handler (plain `node:http`, no Effect in
 * sight) answers with the stream's server-sent events from `Chat.toEventStream`, one write per network read
 * of the service's answer; a client that goes away cancels the stream, which releases the connection to
 * the service. Here `fetch` plays the browser and prints the text as it arrives.
 *
 *   npx tsx examples/stream-to-browser.ts
 */
import { ManagedRuntime } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Chat } from "studio-effect"
import { studioLayer, target } from "./layer.js"

const runtime = ManagedRuntime.make(studioLayer())

const server = http.createServer(async (req, res) => {
  const prompt = new URL(req.url ?? "/", "http://localhost").searchParams.get("q") ?? "Hello"
  const events = Chat.stream({ model: "fpmodel-mini", messages: [{ role: "user", content: prompt }] }).pipe(
    Chat.toEventStream(runtime)
  )
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
  const reader = events.getReader()
  res.on("close", () => void reader.cancel())
  for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value)
  res.end()
})

const main = async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  console.log(`Forwarding a chat stream from ${target} to a browser, through http://127.0.0.1:${port}`)
  // what a browser's EventSource or fetch does with the body: read the events as they arrive
  const response = await fetch(`http://127.0.0.1:${port}/?q=${encodeURIComponent("Describe a lighthouse.")}`)
  const decoder = new TextDecoder()
  let buffer = ""
  let events = 0
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true })
    for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
      const data = buffer.slice(0, end).replace(/^data: /, "")
      buffer = buffer.slice(end + 2)
      events++
      if (data !== "[DONE]") process.stdout.write(JSON.parse(data).choices[0]?.delta?.content ?? "")
    }
  }
  console.log(`\n${events} events forwarded, the last one [DONE]`)
}

main().catch((error) => {
  console.error(String(error))
  process.exitCode = 1
}).finally(() => {
  server.close()
  return runtime.dispose()
})
