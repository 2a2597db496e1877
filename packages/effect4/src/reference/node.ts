/**
 * Serving the reference service on Node.js. This is the only module of the reference service that uses
 * `@effect/platform-node`; it is loaded on demand by `listen` and by the CLI.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Effect from "effect/Effect"
import type * as HttpServerError from "effect/http/HttpServerError"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as NetAddress from "effect/net/NetAddress"
import type * as Scope from "effect/Scope"
import * as http from "node:http"
import { type App, make } from "./app.js"
import { ConnectionControl } from "./faults.js"
import type { Listening, ListenOptions } from "./listening.js"

/** The part of a Node.js response (HTTP/1 or HTTP/2) that closing its connection uses. */
interface NodeResponse {
  readonly writableLength: number
  readonly socket: { readonly writableLength: number } | null
  destroy(): unknown
}

/** Destroys the socket of `response` once what was written to it has left, so a client sees it. */
const destroyAfterFlush = (response: NodeResponse): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    const attempt = (tries: number) => {
      const pending = response.writableLength + (response.socket?.writableLength ?? 0)
      if (pending === 0 || tries > 1000) {
        response.destroy()
        resume(Effect.void)
      } else {
        setImmediate(() => attempt(tries + 1))
      }
    }
    setImmediate(() => attempt(0))
  })

/**
 * The app with dropped connections made real: the socket is destroyed. Its handlers are interruptible (the
 * server runs them uninterruptibly otherwise), so a client that goes away ends a delayed answer, and closing
 * the server does not wait for one.
 */
export const overSocket = (
  app: App
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest | Scope.Scope> =>
  app.pipe(
    Effect.provideService(ConnectionControl, {
      drop: (request) => destroyAfterFlush(NodeHttpServerRequest.toServerResponse(request))
    }),
    Effect.catchTag("ConnectionDropped", () => Effect.succeed(HttpServerResponse.empty())),
    Effect.interruptible
  )

/** Serves the reference service until the scope closes. */
export const listen = (
  options: ListenOptions = {}
): Effect.Effect<Listening, HttpServerError.ServeError, Scope.Scope> =>
  Effect.gen(function*() {
    const host = options.host ?? "127.0.0.1"
    const app = yield* make(options)
    const server = yield* NodeHttpServer.make(() => http.createServer(), { port: options.port ?? 0, host })
    yield* server.serve(overSocket(app))
    const address = server.address
    const port = NetAddress.isInetAddress(address) ? address.port : 0
    const shown = host.includes(":") ? `[${host}]` : host
    return { url: `http://${shown}:${port}`, host, port }
  })
