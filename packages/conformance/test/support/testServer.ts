/**
 * A small scripted HTTP server on 127.0.0.1 (port 0) for tests of the client over a real socket. Each test
 * gives the answers it wants; the server records every request it saw.
 */
import { callback, Effect, FetchHttpClient, type HttpClient, Layer, Redacted } from "@studio-effect/line"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { StudioClient } from "studio-effect"
import { ioTurn } from "./clock.js"

/** A request as the server saw it. */
export interface RecordedRequest {
  readonly method: string
  readonly url: string
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
}

/** What to answer: a status with JSON or raw body, chunks written one by one, or a dropped connection. */
export type ScriptedResponse =
  | {
    readonly status?: number
    readonly headers?: Record<string, string>
    readonly json?: unknown
    readonly body?: string
  }
  | {
    readonly status?: number
    readonly headers?: Record<string, string>
    /** Written in order, each as its own write; `end: false` leaves the connection open (for idle tests). */
    readonly chunks: ReadonlyArray<string | Uint8Array>
    readonly end?: boolean
    /** Destroys the socket after the chunks instead of ending the response. */
    readonly destroyAfter?: boolean
  }
  | { readonly drop: true }

export type Handler = (request: RecordedRequest, index: number) => ScriptedResponse

export interface TestServer {
  readonly url: string
  readonly requests: Array<RecordedRequest>
  /** Resolves when the server saw a client close its socket. */
  readonly closedSockets: () => number
}

const respond = (res: http.ServerResponse, answer: ScriptedResponse) => {
  if ("drop" in answer) {
    res.socket?.destroy()
    return
  }
  const headers = { ...answer.headers }
  if ("chunks" in answer) {
    res.writeHead(answer.status ?? 200, { "content-type": "text/event-stream", ...headers })
    res.flushHeaders()
    for (const chunk of answer.chunks) res.write(chunk)
    if (answer.destroyAfter === true) setImmediate(() => res.socket?.destroy())
    else if (answer.end !== false) res.end()
    return
  }
  const body = answer.json !== undefined ? JSON.stringify(answer.json) : answer.body ?? ""
  res.writeHead(answer.status ?? 200, {
    "content-type": answer.json !== undefined ? "application/json" : "text/plain",
    ...headers
  })
  res.end(body)
}

/** Starts the server for the scope of the test; it is closed when the scope ends. */
export const testServer = (handler: Handler) =>
  Effect.acquireRelease(
    callback<{ server: http.Server; info: TestServer }>((resume) => {
      const requests: Array<RecordedRequest> = []
      let closed = 0
      const server = http.createServer((req, res) => {
        const parts: Array<Buffer> = []
        req.on("data", (part: Buffer) => parts.push(part))
        req.on("end", () => {
          const recorded: RecordedRequest = {
            method: req.method ?? "",
            url: req.url ?? "",
            headers: req.headers,
            body: Buffer.concat(parts).toString("utf8")
          }
          requests.push(recorded)
          respond(res, handler(recorded, requests.length - 1))
        })
      })
      server.on("connection", (socket) => socket.on("close", () => closed++))
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({
          server,
          info: { url: `http://127.0.0.1:${port}`, requests, closedSockets: () => closed }
        }))
      })
    }),
    ({ server }) =>
      callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ info }) => info))

/** The key the test clients send. */
export const testKey = "sk-test-key"

/** A client of a test server over `transport` (`fetch` by default), with the test key; `options` override the defaults. */
export const clientOf = (
  url: string,
  options: Partial<StudioClient.StudioClientOptions> = {},
  transport: Layer.Layer<HttpClient.HttpClient> = FetchHttpClient.layer
) =>
  StudioClient.layer({ apiKey: Redacted.make(testKey), baseUrl: url, ...options }).pipe(
    Layer.provide(transport),
    Layer.orDie
  )

/** Lets the event loop run until the server saw `count` requests (a bounded number of turns, no timer). */
export const untilRequests = (server: TestServer, count: number): Effect.Effect<number> =>
  Effect.gen(function*() {
    for (let turn = 0; turn < 100_000 && server.requests.length < count; turn++) yield* ioTurn
    return server.requests.length
  })
