/**
 * The client's options, and the settings of one call resolved from them and the region's `RequestOptions`.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as Redacted from "effect/Redacted"

/**
 * The settings that can change for one call (see `withRequestOptions`).
 */
export interface RequestOptions {
  readonly maxRetries?: number | undefined
  /**
   * Retry the creates the service bills or stores (a run, an assistant, an assistant run) on every
   * retryable error, as other calls are. By default they are retried only where the service cannot have
   * acted (see `docs/reliability.md`), so that a retry never creates twice.
   */
  readonly retryCreates?: boolean | undefined
  readonly timeout?: Duration.DurationInput | undefined
  readonly streamIdleTimeout?: Duration.DurationInput | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/**
 * Options of the client.
 */
export interface StudioClientOptions extends RequestOptions {
  /**
   * The API key. Without one, every request fails with `AuthError` before anything is sent; one holding
   * anything but printable ASCII (a trailing line break read from a file) fails the layer with
   * `ValidationError`.
   */
  readonly apiKey?: Redacted.Redacted | undefined
  /** Scheme, host and optional prefix; the operations' paths (`/studio/v1/...`) are appended. */
  readonly baseUrl?: string | undefined
  /** Allow `http://` to a host other than loopback, which would send the key in clear text. */
  readonly allowInsecureHttp?: boolean | undefined
  /**
   * The largest event a stream may carry, in characters of its decoded text (for ASCII, bytes): 8 MiB when
   * not given. A larger one fails the stream with `DecodeError` and the connection is released at once.
   */
  readonly maxEventSize?: number | undefined
  /**
   * The largest non-streamed answer, in bytes: 32 MiB when not given. A larger one fails with `DecodeError`
   * (not retried) as soon as it is known, without reading on. Error bodies are read only in part (8 KiB).
   */
  readonly maxResponseSize?: number | undefined
  /** Middleware for the transport, applied after the base URL, auth and headers. */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
}

/** The settings of one call, resolved from the layer's options and the region's `RequestOptions`. */
export interface Settings {
  readonly maxRetries: number
  readonly retryCreates: boolean
  readonly timeout: Duration.Duration
  readonly streamIdleTimeout: Duration.Duration
  readonly headers: Readonly<Record<string, string>>
}

/** What the service is made of, once the options are checked. */
export interface ClientConfig {
  readonly options: StudioClientOptions
  /** The checked base URL, without a trailing slash. */
  readonly baseUrl: string
  /** The settings of the current call. */
  readonly settings: Effect.Effect<Settings>
}

/** Whether an object has no own enumerable key. */
export const isEmpty = (object: object): boolean => {
  for (const _ in object) return false
  return true
}
