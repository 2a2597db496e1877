/**
 * What serving the reference service over HTTP takes and gives (`listen`).
 */
import type { ReferenceOptions } from "./app.js"

/**
 * Where `listen` serves.
 *
 * @since 0.1.0
 * @category models
 */
export interface ListenOptions extends ReferenceOptions {
  /** The port; 0 (the default) picks a free one. */
  readonly port?: number | undefined
  /** The interface; `127.0.0.1` by default. */
  readonly host?: string | undefined
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
