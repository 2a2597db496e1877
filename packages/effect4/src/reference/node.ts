/**
 * Serving the reference service on Node.js. This is the only module of the reference service that uses
 * `@effect/platform-node`; it is loaded on demand by `listen` and by the CLI.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as HttpServerError from "effect/http/HttpServerError"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Logger from "effect/Logger"
import * as NetAddress from "effect/net/NetAddress"
import type * as Scope from "effect/Scope"
import * as http from "node:http"
import {
  destroyAfterFlush,
  guard,
  listeningUrl,
  serverOptions,
  type ServingLimits,
  servingLimitsOf
} from "studio-effect-core/reference/connections"
import { type App, make } from "./app.js"
import { ConnectionControl } from "./faults.js"
import type { Listening, ListenOptions } from "./listening.js"
import { logRequests } from "./requestLog.js"

/**
 * The app with dropped connections made real: the socket is destroyed. Its handlers are interruptible (the
 * server runs them uninterruptibly otherwise), so a client that goes away ends a delayed answer, and closing
 * the server does not wait for one. `answering`, when given, is told of the Node.js response of each
 * request before the app answers it.
 */
export const overSocket = (
  app: App,
  answering?: (response: http.ServerResponse) => void
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest | Scope.Scope> =>
  (answering === undefined ? app : Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    answering(NodeHttpServerRequest.toServerResponse(request) as http.ServerResponse)
    return app
  })).pipe(
    Effect.provideService(ConnectionControl, {
      drop: (request) =>
        Effect.callback<void>((resume) =>
          destroyAfterFlush(NodeHttpServerRequest.toServerResponse(request), () => resume(Effect.void))
        )
    }),
    Effect.catchTag("ConnectionDropped", () => Effect.succeed(HttpServerResponse.empty())),
    Effect.interruptible
  )

const millis = (duration: Duration.Input | undefined): number | undefined =>
  duration === undefined ? undefined : Duration.toMillis(Duration.fromInputUnsafe(duration))

const oneLineLogs = Logger.layer([Logger.consoleLogFmt])

/** The bounds of serving that `options` give, the defaults for the others. */
const servingLimits = (options: ListenOptions): ServingLimits =>
  servingLimitsOf({
    maxConnections: options.maxConnections,
    headersTimeoutMs: millis(options.headersTimeout),
    requestTimeoutMs: millis(options.requestTimeout),
    shutdownTimeoutMs: millis(options.shutdownTimeout)
  })

/**
 * Serves the reference service until the scope closes, within the bounds of `options` (connections, time
 * to send a request). Closing the scope shuts the server down in bounded time: it stops accepting, answers
 * bodies still arriving 503, ends open streams with a last event, and closes every connection left.
 */
export const listen = (
  options: ListenOptions = {}
): Effect.Effect<Listening, HttpServerError.ServeError, Scope.Scope> =>
  Effect.gen(function*() {
    const host = options.host ?? "127.0.0.1"
    const limits = servingLimits(options)
    const stopping = yield* Deferred.make<void>()
    const app = yield* make(options, Deferred.await(stopping))
    const nodeServer = http.createServer(serverOptions(limits))
    const guarded = guard(nodeServer, limits)
    const server = yield* NodeHttpServer.make(() => nodeServer, { port: options.port ?? 0, host })
    const served = overSocket(app, guarded.answering)
    // one logfmt line per request, whatever logger the application runs with
    yield* server.serve(
      options.log === true ? logRequests(served).pipe(Effect.provide(oneLineLogs)) : served
    )
    // runs before the server's own finalizers, which then find it closed
    yield* Effect.addFinalizer(() =>
      Effect.andThen(Deferred.succeed(stopping, undefined), Effect.promise(() => guarded.shutdown()))
    )
    const address = server.address
    const port = NetAddress.isInetAddress(address) ? address.port : 0
    return { url: listeningUrl(host, port), host, port }
  })
