/**
 * Serving the reference service on Node.js. This is the only module of the reference service that uses
 * `@effect/platform-node`; it is loaded on demand by `listen` and by the CLI.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import type * as HttpApp from "@effect/platform/HttpApp"
import type * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as http from "node:http"
import { make } from "./app.js"
import { ConnectionControl, type ConnectionDropped } from "./faults.js"
import type { Listening, ListenOptions } from "./index.js"

/** The app with dropped connections made real: the socket is destroyed. */
export const overSocket = (app: HttpApp.Default<ConnectionDropped>): HttpApp.Default =>
  app.pipe(
    Effect.provideService(ConnectionControl, {
      drop: (request) => Effect.sync(() => NodeHttpServerRequest.toServerResponse(request).destroy())
    }),
    Effect.catchTag("ConnectionDropped", () => Effect.succeed(HttpServerResponse.empty()))
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
    const port = address._tag === "TcpAddress" ? address.port : 0
    const shown = host.includes(":") ? `[${host}]` : host
    return { url: `http://${shown}:${port}`, host, port }
  })
