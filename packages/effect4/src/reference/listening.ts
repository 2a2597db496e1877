/**
 * What serving the reference service over HTTP takes and gives (`listen`).
 */
import type * as Duration from "effect/Duration"
import type { ReferenceOptions } from "./app.js"

/**
 * Where `listen` serves, and the bounds it keeps whatever its clients do.
 *
 * @since 0.1.0
 * @category models
 */
export interface ListenOptions extends ReferenceOptions {
  /** The port; 0 (the default) picks a free one. */
  readonly port?: number | undefined
  /** The interface; `127.0.0.1` by default. */
  readonly host?: string | undefined
  /** Logs one line per request answered (method, address, status) with Effect's logger; off by default. */
  readonly log?: boolean | undefined
  /** The most open connections (default 1,024); past it, a new connection is closed at once. */
  readonly maxConnections?: number | undefined
  /** How long a client may take to send a request's headers (default 10 s); past it, 408 and closed. */
  readonly headersTimeout?: Duration.Input | undefined
  /** How long a client may take to send a whole request, body included (default 60 s); past it, 408. */
  readonly requestTimeout?: Duration.Input | undefined
  /**
   * How long closing waits for answers under way (default 2 s): open streams end at once with a last
   * event, and every connection still open after it is closed.
   */
  readonly shutdownTimeout?: Duration.Input | undefined
}

/**
 * A running server.
 *
 * @since 0.1.0
 * @category models
 */
export interface Listening {
  /** `http://host:port`: the base URL for `StudioClient.layer`. */
  readonly url: string
  readonly host: string
  readonly port: number
}
