/**
 * The client of the Studio service: a service tag with `make`, `layer` and `layerConfig`. The transport is
 * any `HttpClient` the application provides (`FetchHttpClient.layer`, `NodeHttpClient.layerUndici`, or the
 * in-memory reference service); the client adds the base URL, bearer auth, `User-Agent`, the per-attempt
 * timeout, retries, and the mapping of every answer to a typed result or a `RequestError`
 * (`internal/http/client.ts`).
 *
 * @since 0.1.0
 */
import type * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { checkApiKey } from "./internal/http/apiKey.js"
import { checkBaseUrl } from "./internal/http/baseUrl.js"
import { checkSizes } from "./internal/http/body.js"
import { isEmpty, type RequestOptions, type Settings, type StudioClientOptions } from "./internal/http/options.js"
import type { BytesRequest, JsonRequest, StreamRequest, WithResponse } from "./internal/http/request.js"
import type { EventError } from "./internal/stream/sse.js"
import type { RequestError, StudioError, ToolCallError, ValidationError } from "./StudioError.js"

/**
 * The service's address when none is given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultBaseUrl = "https://api.ai21.com"

/**
 * Retries after the first attempt, when none is given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxRetries = 2

/**
 * How long one attempt may take (until the whole body of a non-streamed answer, or the headers of a
 * stream), when none is given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultTimeout: Duration.Duration = Duration.minutes(2)

/**
 * How long a stream may go without an event, when none is given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultStreamIdleTimeout: Duration.Duration = Duration.minutes(1)

export type {
  /**
   * One request with a JSON answer.
   *
   * @since 0.1.0
   * @category models
   */
  JsonRequest,
  /**
   * One request whose answer is a byte stream (server-sent events).
   *
   * @since 0.1.0
   * @category models
   */
  StreamRequest,
  /**
   * An operation's value with what its answer said about it: status, headers, request id and rate-limit
   * figures (the `…WithResponse` variant of each operation gives it).
   *
   * @since 0.1.0
   * @category models
   */
  WithResponse
} from "./internal/http/request.js"

export type {
  /**
   * The settings that can change for one call (see `withRequestOptions`).
   *
   * @since 0.1.0
   * @category models
   */
  RequestOptions,
  /**
   * Options of the client.
   *
   * @since 0.1.0
   * @category models
   */
  StudioClientOptions
} from "./internal/http/options.js"

export type {
  /**
   * The rate-limit figures an answer carried.
   *
   * @since 0.1.0
   * @category models
   */
  RateLimitFigures
} from "studio-effect-core/wire/rateLimit"

/**
 * The client's interface.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly baseUrl: string
  /** Sends a request (retrying what may succeed on a retry) and decodes its JSON answer. */
  readonly json: <A, I>(request: JsonRequest<A, I>) => Effect.Effect<A, RequestError>
  /** `json`, with the status, headers, request id and rate-limit figures of the answer. */
  readonly jsonWithResponse: <A, I>(request: JsonRequest<A, I>) => Effect.Effect<WithResponse<A>, RequestError>
  /**
   * Sends a request and connects in the scope (connecting is retried), then gives the stream of the `data`
   * of each server-sent event of its body, each turned by `parse` into an output (or the `EventError` that
   * ends the stream), until `[DONE]`; the body is read while the scope is open. Once the body has started,
   * a failure ends the stream with an error, and a pause longer than the idle timeout fails it with
   * `TimeoutError`. Events are bounded by `maxEventSize`; the body is released right after `[DONE]`.
   */
  readonly openEvents: <A>(
    request: StreamRequest,
    parse: (data: string) => A | EventError<RequestError>
  ) => Effect.Effect<Stream.Stream<A, RequestError>, RequestError, Scope.Scope>
  /**
   * `openEvents`, with the status, headers, request id and rate-limit figures the answer had when it
   * opened; its `value` is the stream of events.
   */
  readonly openEventsWithResponse: <A>(
    request: StreamRequest,
    parse: (data: string) => A | EventError<RequestError>
  ) => Effect.Effect<WithResponse<Stream.Stream<A, RequestError>>, RequestError, Scope.Scope>
  /**
   * Sends a `GET` and connects in the scope (connecting is retried), then gives the stream of its body's
   * bytes, read while the scope is open: at most `maxSize` bytes (a longer body fails with `DecodeError`),
   * a pause longer than the idle timeout failing it with `TimeoutError`.
   */
  readonly openBytes: (
    request: BytesRequest
  ) => Effect.Effect<Stream.Stream<Uint8Array, RequestError>, RequestError, Scope.Scope>
  /**
   * The error with the API key, and every tool credential value in `body` (a request's body), replaced in
   * everything it carries. `json` and `openEvents` already do this; it is for errors made from what a call
   * returned (a failed run's message may quote a tool's header).
   */
  readonly redact: <E extends StudioError | ToolCallError>(error: E, body?: unknown) => E
  /**
   * Span attributes with the API key, and every tool credential value in `body`, replaced in their
   * values: a server may copy the key into an answer's `id`, and no value from a server reaches a span
   * before it is checked here.
   */
  readonly redactAttributes: <A extends Readonly<Record<string, unknown>>>(attributes: A, body?: unknown) => A
}

/**
 * The Studio client service.
 *
 * @since 0.1.0
 * @category tags
 */
export class StudioClient extends Context.Service<StudioClient, Service>()("studio-effect/StudioClient") {}

/**
 * Settings for the calls made in a region of the program; empty by default.
 *
 * @since 0.1.0
 * @category tags
 */
export const CurrentRequestOptions: Context.Reference<RequestOptions> = Context.Reference<RequestOptions>(
  "studio-effect/CurrentRequestOptions",
  { defaultValue: (): RequestOptions => ({}) }
)

/**
 * Runs an effect with other settings for its calls (timeout, retries, headers), without rebuilding the layer.
 *
 * @since 0.1.0
 * @category request options
 */
export const withRequestOptions: {
  (options: RequestOptions): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, options: RequestOptions): Effect.Effect<A, E, R>
} = dual(
  2,
  <A, E, R>(self: Effect.Effect<A, E, R>, options: RequestOptions): Effect.Effect<A, E, R> =>
    Effect.flatMap(
      CurrentRequestOptions,
      (current) => Effect.provideService(self, CurrentRequestOptions, mergeRequestOptions(current, options))
    )
)

/**
 * Runs a stream with other settings for its calls.
 *
 * @since 0.1.0
 * @category request options
 */
export const withStreamRequestOptions: {
  (options: RequestOptions): <A, E, R>(self: Stream.Stream<A, E, R>) => Stream.Stream<A, E, R>
  <A, E, R>(self: Stream.Stream<A, E, R>, options: RequestOptions): Stream.Stream<A, E, R>
} = dual(
  2,
  <A, E, R>(self: Stream.Stream<A, E, R>, options: RequestOptions): Stream.Stream<A, E, R> =>
    Stream.unwrap(
      Effect.map(CurrentRequestOptions, (current) =>
        Stream.provideService(self, CurrentRequestOptions, mergeRequestOptions(current, options)))
    )
)

const mergeRequestOptions = (base: RequestOptions, override: RequestOptions): RequestOptions => ({
  ...base,
  ...override,
  headers: { ...base.headers, ...override.headers }
})

const resolved = (options: RequestOptions): Settings => ({
  maxRetries: Math.max(0, options.maxRetries ?? defaultMaxRetries),
  retryCreates: options.retryCreates === true,
  timeout: Duration.fromInputUnsafe(options.timeout ?? defaultTimeout),
  streamIdleTimeout: Duration.fromInputUnsafe(options.streamIdleTimeout ?? defaultStreamIdleTimeout),
  headers: options.headers ?? {}
})

/**
 * Builds the client from its options and the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: StudioClientOptions
): Effect.Effect<Service, ValidationError, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const baseUrl = yield* checkBaseUrl(options.baseUrl ?? defaultBaseUrl, options.allowInsecureHttp === true)
    yield* checkSizes({ maxResponseSize: options.maxResponseSize, maxEventSize: options.maxEventSize })
    yield* checkApiKey(options.apiKey)
    const transport = yield* HttpClient.HttpClient
    // most calls run with the default (empty) request options: resolve those once
    const defaults = resolved(options)
    const settings = Effect.map(
      CurrentRequestOptions,
      (current) => isEmpty(current) ? defaults : resolved(mergeRequestOptions(options, current))
    )
    // loaded when a client is made, not on import: its 23 modules were ~20% of the package's own import time
    const { makeService } = yield* Effect.promise(() => import("./internal/http/client.js"))
    return StudioClient.of(makeService({ options, baseUrl, settings }, transport))
  })

/**
 * A layer of the client from options.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: StudioClientOptions
): Layer.Layer<StudioClient, ValidationError, HttpClient.HttpClient> => Layer.effect(StudioClient, make(options))

/**
 * Options of `layerConfig`: the key and the base URL as `Config` values, read when the layer is built, and
 * any other option of the client as is.
 *
 * @since 0.1.0
 * @category models
 */
export interface ConfigOptions extends Omit<StudioClientOptions, "apiKey" | "baseUrl"> {
  /**
   * Where the key is read: by default `STUDIO_API_KEY`, or when it is missing or empty its alias
   * `AI21_API_KEY` (as the official SDKs name it), each as `Config.Redacted`.
   */
  readonly apiKey?: Config.Config<Redacted.Redacted> | undefined
  /**
   * Where the base URL is read: by default `STUDIO_BASE_URL`, or when it is missing or empty its alias
   * `AI21_API_HOST`; `defaultBaseUrl` if neither is set.
   */
  readonly baseUrl?: Config.Config<string> | undefined
  /**
   * What a missing or empty key means: `"fail"` (the default) makes every call fail with `AuthError`;
   * `"reference"` serves the calls from the reference service embedded in memory (no account, no network),
   * and says so in a warning when the layer is built, unless a base URL is configured: a client that names a
   * service and has no key for it fails every call with `AuthError`, never answered by the embedded one.
   */
  readonly withoutKey?: "fail" | "reference" | undefined
}

/**
 * A layer of the client configured with `Config`: the key from `STUDIO_API_KEY` and the base URL from
 * `STUDIO_BASE_URL` (optional), or their aliases `AI21_API_KEY` and `AI21_API_HOST` where the `STUDIO_` names
 * are missing or empty, unless other `Config` values are given. A missing or empty key does not fail
 * the layer: every call then fails with `AuthError` ("No API key is configured"), as with `layer`, unless
 * `withoutKey: "reference"` asks for the embedded reference service instead. A value
 * that is present but invalid fails the layer with its `ConfigError`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  options: ConfigOptions = {}
): Layer.Layer<StudioClient, ValidationError | Config.ConfigError, HttpClient.HttpClient> =>
  Layer.unwrap(Effect.gen(function*() {
    const { apiKey: apiKeyConfig, baseUrl: baseUrlConfig, withoutKey, ...rest } = options
    // loaded when the layer is built, not on import: it brings Effect's Config, ConfigProvider and Path (~100 kB)
    const { apiKeyOf, baseUrlOf } = yield* Effect.promise(() => import("./internal/environment.js"))
    const key = yield* apiKeyOf(apiKeyConfig)
    const url = yield* baseUrlOf(baseUrlConfig)
    if (key === undefined && withoutKey === "reference" && url !== undefined) {
      // a deployment that lost its key must not be answered by the fake in place of the service it names
      yield* Effect.logWarning(
        "No API key (STUDIO_API_KEY) for the configured service (STUDIO_BASE_URL): every call fails with AuthError; " +
          "the embedded reference service is used only when no service address is configured"
      )
    }
    if (key === undefined && withoutKey === "reference" && url === undefined) {
      yield* Effect.logWarning(
        "No API key (STUDIO_API_KEY): calls go to the reference service embedded in memory, not to the Studio service"
      )
      // the reference owns the embedded service; loaded only here, so no other program pays for it
      const Embedded = yield* Effect.promise(() => import("./reference/embedded.js"))
      return layer({ ...rest, apiKey: Redacted.make(Embedded.apiKey), baseUrl: Embedded.baseUrl }).pipe(
        Layer.orDie,
        Layer.provide(Embedded.transport())
      )
    }
    return Layer.effect(
      StudioClient,
      make({ ...rest, apiKey: key, baseUrl: url })
    )
  }))

/**
 * Reads an API key as `Redacted` (for `layer`), so it never shows in logs or errors.
 *
 * @since 0.1.0
 * @category constructors
 */
export const apiKey = (key: string): Redacted.Redacted => Redacted.make(key)
