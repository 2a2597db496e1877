/**
 * The connections of the reference service on a Node.js HTTP server: how many it keeps, how long a client
 * may take to send a request, and how the server shuts down within a bounded time whatever its clients do
 * (half-sent headers, half-sent bodies, streams left open). Shared by both Effect lines' `listen`.
 *
 * @since 0.1.0
 */

/** The parts of a Node.js socket (`net.Socket`) used here. */
interface Socket {
  once(event: "close", listener: () => void): unknown
  destroy(): unknown
}

/** The parts of a Node.js `http.ServerResponse` used here. */
export interface NodeResponse {
  shouldKeepAlive: boolean
  once(event: "close", listener: () => void): unknown
  on(event: "close", listener: () => void): unknown
  off(event: "close", listener: () => void): unknown
}

/** The parts of a Node.js `http.Server` used here. */
export interface NodeServer {
  maxConnections: number
  readonly listening: boolean
  on(event: "connection", listener: (socket: Socket) => void): unknown
  close(): unknown
  closeIdleConnections(): void
  closeAllConnections(): void
}

/** The options of Node.js's `http.createServer` that bound the time to send a request. */
export interface NodeServerOptions {
  readonly headersTimeout: number
  readonly requestTimeout: number
  readonly connectionsCheckingInterval: number
}

/**
 * The bounds of serving over HTTP.
 *
 * @since 0.1.0
 * @category models
 */
export interface ServingLimits {
  /** The most open connections; past it, a new connection is closed at once. */
  readonly maxConnections: number
  /** How long a client may take to send a request's headers, in milliseconds; past it, 408 and closed. */
  readonly headersTimeoutMs: number
  /** How long a client may take to send a whole request (headers and body), in milliseconds; past it, 408. */
  readonly requestTimeoutMs: number
  /** How long shutting down waits for answers under way (streams ending with their last event). */
  readonly shutdownTimeoutMs: number
}

/**
 * The bounds used when none are given: 1,024 connections, 10 s for the headers, 60 s for a whole request,
 * and 2 s for answers under way at shutdown.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultServingLimits: ServingLimits = {
  maxConnections: 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  shutdownTimeoutMs: 2_000
}

/**
 * The status a request log gives a request that its client ended before any response (it closed the
 * connection, or sent a body so malformed that Node.js answered 400 and closed it): nginx's 499, a client's
 * doing, never a 5xx.
 *
 * @since 1.0.0
 * @category constants
 */
export const clientClosedStatus = 499

/** The longest delay a Node.js timer holds; longer ones fire at once. */
const maxTimerMs = 2 ** 31 - 1

const clampMs = (ms: number): number => Math.min(maxTimerMs, Math.max(1, Math.floor(ms)))

/**
 * The options of `http.createServer` that enforce the limits. Node.js checks the timeouts periodically,
 * so the check runs at least four times within the shorter one (and at most every second).
 *
 * @since 0.1.0
 * @category constructors
 */
export const serverOptions = (limits: ServingLimits): NodeServerOptions => {
  const requestTimeout = clampMs(limits.requestTimeoutMs)
  // Node.js requires the headers' timeout to be no longer than the request's
  const headersTimeout = Math.min(clampMs(limits.headersTimeoutMs), requestTimeout)
  return {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4)))
  }
}

/**
 * A server's connections, watched from before it listens: `shutdown` stops accepting, closes idle
 * connections, waits (at most `shutdownTimeoutMs`) for the answers under way, which the service ends on
 * its side, and then closes every connection left, stalled ones included.
 *
 * @since 0.1.0
 * @category models
 */
export interface Guarded {
  /** How many connections are open. */
  readonly connections: () => number
  /** Tells of an answer under way (the server's handler calls it for each request it takes). */
  readonly answering: (response: NodeResponse) => void
  /** Shuts the server down as described; resolves once every connection is closed. */
  readonly shutdown: () => Promise<void>
}

/**
 * Watches `server` (a fresh one, not yet listening) and applies `maxConnections` to it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const guard = (server: NodeServer, limits: ServingLimits): Guarded => {
  server.maxConnections = Math.max(1, Math.floor(limits.maxConnections))
  const sockets = new Set<Socket>()
  const answers = new Set<NodeResponse>()
  let stopping = false
  server.on("connection", (socket) => {
    if (stopping) {
      socket.destroy()
      return
    }
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
  })
  const answering = (response: NodeResponse): void => {
    answers.add(response)
    response.once("close", () => answers.delete(response))
    // an answer that starts while stopping closes its connection when done
    if (stopping) response.shouldKeepAlive = false
  }

  /** Resolves once no answer is under way, or when the timeout passes. */
  const answered = () =>
    new Promise<void>((resolve) => {
      if (answers.size === 0) return resolve()
      const timer = setTimeout(done, clampMs(limits.shutdownTimeoutMs))
      function done() {
        clearTimeout(timer)
        for (const answer of answers) answer.off("close", check)
        resolve()
      }
      function check() {
        if (answers.size === 0) done()
      }
      for (const answer of answers) answer.on("close", check)
    })

  /** Resolves once every socket is closed. */
  const closed = () =>
    new Promise<void>((resolve) => {
      let left = sockets.size
      if (left === 0) return resolve()
      for (const socket of sockets) {
        socket.once("close", () => {
          if (--left === 0) resolve()
        })
        socket.destroy()
      }
    })

  const shutdown = async (): Promise<void> => {
    if (!stopping) {
      stopping = true
      if (server.listening) server.close()
      for (const answer of answers) answer.shouldKeepAlive = false
      server.closeIdleConnections()
    }
    await answered()
    server.closeAllConnections()
    await closed()
  }

  return { connections: () => sockets.size, answering, shutdown }
}

/**
 * The part of a Node.js response (HTTP/1 or HTTP/2) that closing its connection uses.
 *
 * @since 0.1.0
 * @category models
 */
export interface ClosableResponse {
  readonly writableLength: number
  readonly socket: { readonly writableLength: number } | null
  destroy(): unknown
}

/** Node.js's `setImmediate` (the core is built without Node's types): the next turn, after pending I/O. */
declare const setImmediate: (callback: () => void) => unknown

/**
 * Destroys the socket of `response` once what was written to it has left (or after 1,000 turns of the
 * event loop), so that a client sees what was sent before the connection drops; then calls `done`.
 *
 * @since 0.1.0
 * @category connections
 */
export const destroyAfterFlush = (response: ClosableResponse, done: () => void): void => {
  const attempt = (tries: number) => {
    const pending = response.writableLength + (response.socket?.writableLength ?? 0)
    if (pending === 0 || tries > 1000) {
      response.destroy()
      done()
    } else {
      setImmediate(() => attempt(tries + 1))
    }
  }
  setImmediate(() => attempt(0))
}

/**
 * The bounds of serving that the options give (times in milliseconds), the defaults for the others.
 *
 * @since 0.1.0
 * @category limits
 */
export const servingLimitsOf = (
  options: { readonly [K in keyof ServingLimits]?: number | undefined }
): ServingLimits => ({
  maxConnections: options.maxConnections ?? defaultServingLimits.maxConnections,
  headersTimeoutMs: options.headersTimeoutMs ?? defaultServingLimits.headersTimeoutMs,
  requestTimeoutMs: options.requestTimeoutMs ?? defaultServingLimits.requestTimeoutMs,
  shutdownTimeoutMs: options.shutdownTimeoutMs ?? defaultServingLimits.shutdownTimeoutMs
})

/**
 * The address a server listening on `host` and `port` answers at (an IPv6 host in brackets).
 *
 * @since 0.1.0
 * @category connections
 */
export const listeningUrl = (host: string, port: number): string =>
  `http://${host.includes(":") ? `[${host}]` : host}:${port}`
