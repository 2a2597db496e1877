/**
 * The benchmark's loopback server, a plain `node:http` server run in its own process. It serves
 * `POST <prefix>/studio/v1/chat/completions` from precomputed bytes:
 *
 * - a body without `"stream":true` gets the precomputed completion;
 * - a streamed request to `/<mode>/<tokens>/studio/v1/...` gets a stream of `<tokens>` content events,
 *   `mode` being `events` (one event per write) or `coalesced` (16 KiB writes that cut events and UTF-8
 *   characters wherever the 16 KiB boundary falls).
 *
 * Writes wait for `drain`, so a slow client is never buffered for. On start it prints `{"port":...}`.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { completionBody, contentEvents, doneEvent, finalEvent, roleEvent, tokens } from "./fixtures.js"

const coalescedWriteSize = 16 * 1024

const completionBytes = Buffer.from(completionBody)
const roleBytes = Buffer.from(roleEvent)
const contentBytes = contentEvents.map((event) => Buffer.from(event))
const doneBytes = Buffer.from(doneEvent)

const waitDrain = (res: http.ServerResponse): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      res.off("drain", done)
      res.off("close", done)
      resolve()
    }
    res.on("drain", done)
    res.on("close", done)
  })

/** The bytes of a stream of `count` tokens, event by event. */
function* streamEvents(count: number): Generator<Buffer> {
  yield roleBytes
  for (let i = 0; i < count; i++) yield contentBytes[i % contentBytes.length]!
  yield Buffer.from(finalEvent(count))
  yield doneBytes
}

const streamLength = (count: number): number => {
  let length = roleBytes.length + Buffer.byteLength(finalEvent(count)) + doneBytes.length
  const cycles = Math.floor(count / tokens.length)
  for (let i = 0; i < contentBytes.length; i++) {
    length += contentBytes[i]!.length * (cycles + (i < count % tokens.length ? 1 : 0))
  }
  return length
}

const sendStream = async (res: http.ServerResponse, count: number, coalesced: boolean): Promise<void> => {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "content-length": String(streamLength(count))
  })
  if (!coalesced) {
    for (const event of streamEvents(count)) {
      if (res.destroyed) return
      if (!res.write(event)) await waitDrain(res)
    }
  } else {
    let block = Buffer.allocUnsafe(coalescedWriteSize)
    let used = 0
    for (const event of streamEvents(count)) {
      let offset = 0
      while (offset < event.length) {
        const copied = event.copy(block, used, offset)
        offset += copied
        used += copied
        if (used === coalescedWriteSize) {
          if (res.destroyed) return
          const ok = res.write(block)
          block = Buffer.allocUnsafe(coalescedWriteSize)
          used = 0
          if (!ok) await waitDrain(res)
        }
      }
    }
    if (used > 0) res.write(block.subarray(0, used))
  }
  res.end()
}

const route = /^\/(events|coalesced)\/(\d+)\/studio\/v1\/chat\/completions$/

const server = http.createServer((req, res) => {
  const chunks: Array<Buffer> = []
  req.on("data", (chunk: Buffer) => chunks.push(chunk))
  req.on("end", () => {
    const match = route.exec(req.url ?? "")
    if (req.method !== "POST" || match === null) {
      res.writeHead(404, { "content-type": "application/json" })
      res.end(JSON.stringify({ detail: "Not Found" }))
      return
    }
    const body = Buffer.concat(chunks).toString("utf8")
    if (!/"stream"\s*:\s*true/.test(body)) {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(completionBytes.length) })
      res.end(completionBytes)
      return
    }
    sendStream(res, Number(match[2]), match[1] === "coalesced").catch(() => res.destroy())
  })
})
server.keepAliveTimeout = 60_000
server.headersTimeout = 65_000

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + "\n")
})

process.on("SIGTERM", () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
})
