/**
 * A hostile HTTP server on 127.0.0.1 (port 0): each test answers with a raw Node handler (endless bodies,
 * held connections, echoes, redirects), and the server counts what it sent and its connections, so a test
 * can see that the client stopped reading and released the socket.
 */
import { callback, Effect, type Scope } from "@studio-effect/line"
import * as http from "node:http"
import type { AddressInfo, Socket } from "node:net"

export interface HostileServer {
  readonly url: string
  /** Requests received so far (method and path). */
  readonly requests: Array<{ readonly method: string; readonly url: string }>
  /** Bytes of bodies written by `endless` so far. */
  readonly written: () => number
  readonly accepted: () => number
  readonly open: () => number
}

export type HostileHandler = (
  request: http.IncomingMessage,
  response: http.ServerResponse,
  tools: { readonly endless: (chunk: string | Uint8Array) => void }
) => void

/** Writes without end, as fast as the client reads, until the socket closes (or 256 MiB, a safety stop). */
const endlessWriter =
  (response: http.ServerResponse, count: (bytes: number) => void) => (chunk: string | Uint8Array) => {
    const size = typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length
    let total = 0
    const write = () => {
      while (!response.destroyed && total < 256 * 1024 * 1024) {
        total += size
        count(size)
        if (!response.write(chunk)) {
          response.once("drain", write)
          return
        }
      }
    }
    write()
  }

/** The server for the scope of the test. */
export const hostileServer = (handler: HostileHandler): Effect.Effect<HostileServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    callback<{ readonly server: http.Server; readonly info: HostileServer }>((resume) => {
      const requests: Array<{ method: string; url: string }> = []
      const sockets = new Set<Socket>()
      let accepted = 0
      let written = 0
      const server = http.createServer((request, response) => {
        requests.push({ method: request.method ?? "", url: request.url ?? "" })
        request.resume()
        request.on("end", () =>
          handler(request, response, {
            endless: endlessWriter(response, (bytes) => {
              written += bytes
            })
          }))
      })
      server.on("connection", (socket: Socket) => {
        accepted++
        sockets.add(socket)
        socket.on("close", () => sockets.delete(socket))
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({
          server,
          info: {
            url: `http://127.0.0.1:${port}`,
            requests,
            written: () => written,
            accepted: () => accepted,
            open: () => sockets.size
          }
        }))
      })
    }),
    ({ server }) =>
      callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ info }) => info))
