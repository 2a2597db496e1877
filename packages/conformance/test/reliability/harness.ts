/**
 * The reliability harness: the reference service over a real socket on 127.0.0.1 (port 0) with a server we
 * own, so tests can count its connections and see when a client closes one; the arrival time of every
 * request on Effect's clock (the `TestClock` in tests); the client over a chosen transport with a canary
 * key; and canaries to search for in everything the SDK emits.
 */
import {
  Cause,
  clockMillis,
  Effect,
  Exit,
  failures,
  fetchOverUndiciAgent,
  hasDie,
  hasInterrupt,
  HttpClient,
  Layer,
  NodeHttpServer,
  Redacted,
  type Scope,
  transports
} from "@studio-effect/line/effect"
import { overSocket } from "@studio-effect/line/src/reference/node.js"
import * as http from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { StudioClient, type StudioError } from "studio-effect"
import * as Reference from "studio-effect/reference"

import { canaryKey } from "../support/canaries.js"

export { canaries, canaryHttp, canaryKey, canaryMcp, chatRequest, runRequest } from "../support/canaries.js"

/** A request as the reference service saw it arrive: method, path, and Effect's clock at that moment. */
export interface Arrival {
  readonly method: string
  readonly path: string
  readonly at: number
}

export interface ReferenceServer {
  readonly url: string
  readonly arrivals: Array<Arrival>
  /** The headers of every request the server received. */
  readonly headers: Array<http.IncomingHttpHeaders>
  /** Connections accepted so far, and how many of them the server has seen closed. */
  readonly accepted: () => number
  readonly closed: () => number
  /** Connections open now. */
  readonly open: () => number
}

/**
 * The reference service with `options` on a socket of our own, until the scope closes. Dropped connections
 * destroy the socket as `Reference.listen` does.
 */
export const referenceServer = (
  options: Reference.ReferenceOptions = {}
): Effect.Effect<ReferenceServer, never, Scope.Scope> =>
  Effect.gen(function*() {
    const now = yield* clockMillis
    const arrivals: Array<Arrival> = []
    const headers: Array<http.IncomingHttpHeaders> = []
    const plan = options.faults
    const app = yield* Reference.app({
      ...options,
      faults: (request) => {
        arrivals.push({ method: request.method, path: request.path, at: now() })
        return Reference.Fault.faultsFor(plan, request)
      }
    })
    const sockets = new Set<Socket>()
    let accepted = 0
    let closed = 0
    const server = http.createServer()
    server.on("connection", (socket: Socket) => {
      accepted++
      sockets.add(socket)
      socket.on("close", () => {
        closed++
        sockets.delete(socket)
      })
    })
    server.on("request", (request: http.IncomingMessage) => {
      headers.push(request.headers)
    })
    const httpServer = yield* NodeHttpServer.make(() => server, { port: 0, host: "127.0.0.1" }).pipe(Effect.orDie)
    yield* httpServer.serve(overSocket(app))
    const port = (server.address() as AddressInfo).port
    // Close idle keep-alive sockets too, so the server's scope ends at once.
    yield* Effect.addFinalizer(() => Effect.sync(() => server.closeAllConnections()))
    return {
      url: `http://127.0.0.1:${port}`,
      arrivals,
      headers,
      accepted: () => accepted,
      closed: () => closed,
      open: () => sockets.size
    }
  })

fetchOverUndiciAgent()

export { transports }

export type TransportName = keyof typeof transports

/** Every transport, for the rows run over each. */
export const transportNames = Object.keys(transports) as ReadonlyArray<TransportName>

/** When the client sent each request, on Effect's clock (the transport's view, before any I/O). */
export interface SendLog {
  readonly sent: Array<number>
}

/** The client with the canary key against `url`, over `transport`, recording when it sends. */
export const clientLayer = (
  url: string,
  transport: TransportName,
  options: Partial<StudioClient.StudioClientOptions> = {},
  log?: SendLog
): Layer.Layer<StudioClient.StudioClient> =>
  StudioClient.layer({
    apiKey: Redacted.make(canaryKey),
    baseUrl: url,
    ...options,
    ...(log === undefined ? {} : {
      transformClient: HttpClient.tapRequest(() =>
        Effect.map(clockMillis, (now) => {
          log.sent.push(now())
        })
      )
    })
  }).pipe(Layer.provide(transports[transport]), Layer.orDie)

/** An error as every printer would show it. */
export const showError = (error: unknown): string => {
  const e = error as Error
  let json: string
  try {
    json = JSON.stringify(error)
  } catch (cause) {
    json = `JSON.stringify threw ${String(cause)}`
  }
  return [String(error), json, e.message ?? "", e.stack ?? "", JSON.stringify(Object.entries(e))].join("\n")
}

/** The typed errors of a cause. */
export const failuresOf = failures

/** The typed error of a failed exit; a defect or an interruption fails the test. */
export const failureOf = <A>(exit: Exit.Exit<A, StudioError.StudioError>): StudioError.StudioError => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure, got a success")
  const [failure, ...more] = failures(exit.cause)
  if (failure === undefined || more.length > 0 || hasDie(exit.cause) || hasInterrupt(exit.cause)) {
    throw new Error(`not one typed error: ${Cause.pretty(exit.cause)}`)
  }
  return failure
}

/** The value of a successful exit; a failure fails the test. */
export const valueOf = <A>(exit: Exit.Exit<A, StudioError.StudioError>): A => {
  if (Exit.isFailure(exit)) throw new Error(`expected a success: ${Cause.pretty(exit.cause)}`)
  return exit.value
}
