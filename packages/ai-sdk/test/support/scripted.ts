/**
 * A scripted service on 127.0.0.1, port 0 (plain `node:http`): each request is counted and answered by the
 * test's handler, which writes whatever it likes (statuses, split bytes, hostile streams).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Scripted {
  readonly url: string
  /** The requests received so far, with their bodies. */
  readonly requests: Array<
    {
      readonly method: string
      readonly url: string
      readonly headers: IncomingMessage["headers"]
      readonly body: string
    }
  >
  readonly close: () => Promise<void>
}

export type Handler = (request: IncomingMessage & { readonly body: string }, response: ServerResponse) => void

export const startScripted = (handler: Handler): Promise<Scripted> =>
  new Promise((resolve) => {
    const requests: Scripted["requests"] = []
    const server = createServer((request, response) => {
      let body = ""
      request.setEncoding("utf8")
      request.on("data", (data: string) => {
        body += data
      })
      request.on("end", () => {
        requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body })
        handler(Object.assign(request, { body }), response)
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })

/** The SSE bytes of chunks of one completion `id`, then `[DONE]`. */
export const sse = (events: ReadonlyArray<unknown>): string =>
  events.map((event) => `data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`).join("") +
  "data: [DONE]\n\n"

/** A chunk of a streamed completion. */
export const chunk = (
  delta: Record<string, unknown>,
  finishReason: string | null = null,
  usage: Record<string, number> | null = null
) => ({
  id: "chat-1",
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  usage
})

/** A completion of one choice. */
export const completion = (message: Record<string, unknown>, finishReason = "stop") => ({
  id: "chat-1",
  choices: [{
    index: 0,
    message: { role: "assistant", content: null, tool_calls: null, ...message },
    logprobs: null,
    finish_reason: finishReason
  }],
  usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 }
})
