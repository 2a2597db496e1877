/**
 * The client of the Studio service: a service tag with `make`, `layer` and `layerConfig`. The transport is
 * any `HttpClient` the application provides (`FetchHttpClient.layer`, `NodeHttpClient.layerUndici`, or the
 * in-memory reference service); this module adds the base URL, bearer auth, `User-Agent`, the per-attempt
 * timeout, retries, and the mapping of every answer to a typed result or a `StudioError`.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Take from "effect/Take"
import { checkBaseUrl } from "./internal/baseUrl.js"
import { defaultMaxResponseSize, readBody, readErrorBody } from "./internal/body.js"
import { withoutRedirects } from "./internal/redirect.js"
import { fromResponse, requestIdOf } from "./internal/responseError.js"
import { retrySchedule } from "./internal/retry.js"
import { scrub, secretsOf } from "./internal/scrub.js"
import { decodeEventsWith, defaultMaxEventSize, type EventError } from "./internal/sse.js"
import { version } from "./internal/version.js"
import {
  AuthError,
  DecodeError,
  type StudioError,
  TimeoutError,
  TransportError,
  type ValidationError
} from "./StudioError.js"

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

/**
 * The settings that can change for one call (see `withRequestOptions`).
 *
 * @since 0.1.0
 * @category models
 */
export interface RequestOptions {
  readonly maxRetries?: number | undefined
  readonly timeout?: Duration.DurationInput | undefined
  readonly streamIdleTimeout?: Duration.DurationInput | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/**
 * Options of the client.
 *
 * @since 0.1.0
 * @category models
 */
export interface StudioClientOptions extends RequestOptions {
  /** The API key. Without one, every request fails with `AuthError` before anything is sent. */
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

/**
 * One request with a JSON answer.
 *
 * @since 0.1.0
 * @category models
 */
export interface JsonRequest<A, I> {
  /** The operation's name, used in errors and spans: `chat`, `maestro.create`, ... */
  readonly operation: string
  readonly method: "GET" | "POST" | "PATCH" | "DELETE"
  /** The path after the base URL, already URL-encoded. */
  readonly path: string
  readonly body?: unknown
  readonly response: Schema.Schema<A, I>
}

/**
 * One request whose answer is a byte stream (server-sent events).
 *
 * @since 0.1.0
 * @category models
 */
export interface StreamRequest {
  readonly operation: string
  readonly path: string
  readonly body: unknown
}

/**
 * The client's interface.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** The transport with base URL, auth, `User-Agent` and headers applied; no retries, no status mapping. */
  readonly httpClient: HttpClient.HttpClient
  readonly baseUrl: string
  /** Sends a request (retrying what may succeed on a retry) and decodes its JSON answer. */
  readonly json: <A, I>(request: JsonRequest<A, I>) => Effect.Effect<A, StudioError>
  /**
   * Sends a request and streams its body. Connecting is retried; once the body has started, a failure
   * ends the stream with an error, and a pause longer than the idle timeout fails it with `TimeoutError`.
   */
  readonly stream: (request: StreamRequest) => Stream.Stream<Uint8Array, StudioError>
  /**
   * Sends a request and streams the `data` of each server-sent event of its body, each turned by `parse`
   * into an output (or the `EventError` that ends the stream), until `[DONE]`. Events are bounded by
   * `maxEventSize`; the body is released right after `[DONE]`.
   */
  readonly events: <A>(
    request: StreamRequest,
    parse: (data: string) => A | EventError<StudioError>
  ) => Stream.Stream<A, StudioError>
}

/**
 * The Studio client service.
 *
 * @since 0.1.0
 * @category tags
 */
export class StudioClient extends Context.Tag("studio-effect/StudioClient")<StudioClient, Service>() {}

/**
 * Settings for the calls made in a region of the program; empty by default.
 *
 * @since 0.1.0
 * @category tags
 */
export class CurrentRequestOptions extends Context.Reference<CurrentRequestOptions>()(
  "studio-effect/CurrentRequestOptions",
  { defaultValue: (): RequestOptions => ({}) }
) {}

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

/** The innermost cause's code and message (`ECONNREFUSED`, "other side closed"), which say what failed. */
const rootCause = (cause: unknown): string | undefined => {
  let current = cause
  let found: string | undefined
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown }
    if (typeof message === "string" && message !== "") {
      found = typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message
    }
    current = (current as { cause?: unknown }).cause
  }
  return found
}

/**
 * A failure to get an answer. The address is taken from the request as sent (base URL included); only its
 * method and URL are kept, never its headers.
 */
const transportError = (error: HttpClientError.HttpClientError) => {
  const detail = rootCause(error.cause) ?? error.description
  return new TransportError({
    method: error.request.method,
    url: error.request.url,
    reason: `${error.reason.toLowerCase()} error${detail === undefined ? "" : `: ${detail}`}`
  })
}

const decoders = new WeakMap<Schema.Schema.Any, (input: unknown) => Effect.Effect<any, ParseResult.ParseError>>()

/** The decoder of a response schema, made once per schema. */
const decoderOf = <A, I>(schema: Schema.Schema<A, I>): (input: unknown) => Effect.Effect<A, ParseResult.ParseError> => {
  let decoder = decoders.get(schema)
  if (decoder === undefined) {
    decoder = Schema.decodeUnknown(schema)
    decoders.set(schema, decoder)
  }
  return decoder
}

const isEmpty = (object: object): boolean => {
  for (const _ in object) return false
  return true
}

/**
 * Fails a stream with `onIdle()` when no bytes arrive for `idle`. A reader fiber moves the reads into a
 * small queue, and one watchdog fiber per stream sleeps until the moment the stream would have been idle
 * that long: a read only moves that moment, so nothing is raced or forked per read. While the reader waits
 * for a slow consumer to take a read, the network is not being waited on, and the clock does not run.
 */
const withIdleTimeout = <A, E>(
  self: Stream.Stream<A, E>,
  idle: Duration.Duration,
  onIdle: () => TimeoutError
): Stream.Stream<A, E | TimeoutError> =>
  Stream.unwrapScoped(Effect.gen(function*() {
    const clock = yield* Effect.clock
    const idleMillis = Duration.toMillis(idle)
    let lastRead = clock.unsafeCurrentTimeMillis()
    let handingOver = false
    let finished = false
    const reads = yield* Queue.bounded<Take.Take<A, E | TimeoutError>>(4)
    yield* self.pipe(
      Stream.runForEachChunk((chunk) => {
        handingOver = true
        return Effect.map(Queue.offer(reads, Take.chunk(chunk)), () => {
          handingOver = false
          lastRead = clock.unsafeCurrentTimeMillis()
        })
      }),
      Effect.matchCauseEffect({
        onFailure: (cause) => Queue.offer(reads, Take.failCause(cause)),
        onSuccess: () => Queue.offer(reads, Take.end)
      }),
      Effect.ensuring(Effect.sync(() => {
        finished = true
      })),
      Effect.forkScoped
    )
    const watchdog: Effect.Effect<void> = Effect.suspend(() => {
      const quietFor = clock.unsafeCurrentTimeMillis() - lastRead
      if (finished) return Effect.void
      return !handingOver && quietFor >= idleMillis
        ? Queue.offer(reads, Take.fail(onIdle()))
        : Effect.zipRight(Effect.sleep(Duration.millis(Math.max(idleMillis - quietFor, 1))), watchdog)
    })
    yield* Effect.forkScoped(watchdog)
    return Stream.flattenTake(Stream.fromQueue(reads))
  }))

const missingKey = new AuthError({ detail: "No API key is configured (set STUDIO_API_KEY or pass apiKey)." })

const resolved = (options: RequestOptions) => ({
  maxRetries: Math.max(0, options.maxRetries ?? defaultMaxRetries),
  timeout: Duration.decode(options.timeout ?? defaultTimeout),
  streamIdleTimeout: Duration.decode(options.streamIdleTimeout ?? defaultStreamIdleTimeout),
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
    const transport = withoutRedirects(yield* HttpClient.HttpClient)
    const maxResponseSize = options.maxResponseSize ?? defaultMaxResponseSize
    const apiKey = options.apiKey
    // the headers every request gets unless it sets its own, in the order they override each other
    const defaultHeaders: Record<string, string> = {
      "User-Agent": `studio-effect/${version}`,
      "Accept": "application/json",
      ...(apiKey === undefined ? {} : { "Authorization": `Bearer ${Redacted.value(apiKey)}` }),
      ...options.headers
    }
    // a request's own headers (per-call options, a stream's Accept) win over the defaults
    const withDefaults = transport.pipe(
      HttpClient.mapRequest((request) =>
        HttpClientRequest.setHeaders(
          HttpClientRequest.setHeaders(HttpClientRequest.prependUrl(request, baseUrl), defaultHeaders),
          request.headers
        )
      )
    )
    const httpClient = options.transformClient === undefined ? withDefaults : options.transformClient(withDefaults)

    const buildRequest = (
      method: JsonRequest<unknown, unknown>["method"],
      path: string,
      body: unknown,
      headers: Readonly<Record<string, string>>
    ) => {
      const bare = HttpClientRequest.make(method)(path)
      const base = isEmpty(headers) ? bare : HttpClientRequest.setHeaders(bare, headers)
      return body === undefined ? base : HttpClientRequest.bodyUnsafeJson(base, body)
    }

    // most calls run with the default (empty) request options: resolve those once
    const defaultSettings = resolved(options)
    const settingsFor = (current: RequestOptions) =>
      isEmpty(current) ? defaultSettings : resolved(mergeRequestOptions(options, current))

    /** Sends once; a non-200 answer becomes the error of its status. */
    const send = (operation: string, request: HttpClientRequest.HttpClientRequest) =>
      httpClient.execute(request).pipe(
        Effect.mapError(transportError),
        Effect.flatMap((response) =>
          response.status === 200 ? Effect.succeed(response) : Effect.flatMap(
            Effect.zip(readErrorBody(response), Clock.currentTimeMillis),
            ([body, now]) =>
              Effect.fail(fromResponse({
                operation,
                method: request.method,
                url: baseUrl + request.url,
                status: response.status,
                headers: response.headers,
                body,
                now
              }))
          )
        )
      )

    const withAttemptTimeout = <A>(
      request: HttpClientRequest.HttpClientRequest,
      timeout: Duration.Duration,
      effect: Effect.Effect<A, StudioError>
    ) =>
      Effect.timeoutFail(effect, {
        duration: timeout,
        onTimeout: () =>
          new TimeoutError({ phase: "attempt", timeout, method: request.method, url: baseUrl + request.url })
      })

    const withRetries = <A>(
      operation: string,
      maxRetries: number,
      attempt: Effect.Effect<A, StudioError>
    ): Effect.Effect<A, StudioError> =>
      attempt.pipe(
        Effect.tapError((error) =>
          Effect.logDebug("studio request attempt failed").pipe(
            Effect.annotateLogs({ operation, error: error._tag })
          )
        ),
        Effect.retry(retrySchedule(maxRetries))
      )

    const decodeBody = <A, I>(
      operation: string,
      response: HttpClientResponse.HttpClientResponse,
      schema: Schema.Schema<A, I>
    ) =>
      Effect.flatMap(
        Effect.catchTag(
          readBody(response, maxResponseSize, operation),
          "ResponseError",
          (error) => Effect.fail(transportError(error))
        ),
        (text) => {
          const decodeError = (reason: string) => {
            // read only on failure: converting the response headers costs on every request
            const requestId = requestIdOf(response.headers)
            return new DecodeError({
              operation,
              reason,
              body: text.slice(0, 1024),
              ...(requestId === undefined ? {} : { requestId })
            })
          }
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            return Effect.fail(decodeError("the body is not JSON"))
          }
          return Effect.mapError(
            decoderOf(schema)(json),
            (error: ParseResult.ParseError) => decodeError(error.message)
          )
        }
      )

    const json = <A, I>(request: JsonRequest<A, I>): Effect.Effect<A, StudioError> =>
      Effect.flatMap(CurrentRequestOptions, (current) => {
        if (apiKey === undefined) return Effect.fail(missingKey)
        const settings = settingsFor(current)
        const httpRequest = buildRequest(request.method, request.path, request.body, settings.headers)
        const attempt = withAttemptTimeout(
          httpRequest,
          settings.timeout,
          Effect.flatMap(send(request.operation, httpRequest), (response) =>
            decodeBody(request.operation, response, request.response))
        )
        return Effect.mapError(
          withRetries(request.operation, settings.maxRetries, attempt),
          (error) =>
            scrub(error, secretsOf(apiKey, request.body))
        )
      })

    const stream = (request: StreamRequest): Stream.Stream<Uint8Array, StudioError> =>
      Stream.mapError(streamBytes(request), (error) => scrub(error, secretsOf(apiKey, request.body)))

    const streamBytes = (request: StreamRequest): Stream.Stream<Uint8Array, StudioError> =>
      Stream.unwrapScoped(Effect.gen(function*() {
        if (apiKey === undefined) {
          return yield* missingKey
        }
        const current = yield* CurrentRequestOptions
        const settings = settingsFor(current)
        const httpRequest = buildRequest("POST", request.path, request.body, settings.headers).pipe(
          HttpClientRequest.setHeader("Accept", "text/event-stream")
        )
        const response = yield* withRetries(
          request.operation,
          settings.maxRetries,
          withAttemptTimeout(httpRequest, settings.timeout, send(request.operation, httpRequest))
        )
        return withIdleTimeout(
          Stream.mapError(response.stream, transportError),
          settings.streamIdleTimeout,
          () =>
            new TimeoutError({
              phase: "stream-idle",
              timeout: settings.streamIdleTimeout,
              method: httpRequest.method,
              url: baseUrl + httpRequest.url
            })
        )
      }))

    const maxEventSize = options.maxEventSize ?? defaultMaxEventSize
    const events = <A>(
      request: StreamRequest,
      parse: (data: string) => A | EventError<StudioError>
    ): Stream.Stream<A, StudioError> =>
      streamBytes(request).pipe(
        decodeEventsWith("POST", baseUrl + request.path, parse, { operation: request.operation, maxEventSize }),
        Stream.mapError((error) => scrub(error, secretsOf(apiKey, request.body)))
      )

    return StudioClient.of({ httpClient, baseUrl, json, stream, events })
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
  /** Where the key is read: `Config.redacted("STUDIO_API_KEY")` by default. */
  readonly apiKey?: Config.Config<Redacted.Redacted> | undefined
  /** Where the base URL is read: `Config.string("STUDIO_BASE_URL")` by default; `defaultBaseUrl` if absent. */
  readonly baseUrl?: Config.Config<string> | undefined
}

/**
 * A layer of the client configured with `Config`: the key from `STUDIO_API_KEY` and the base URL from
 * `STUDIO_BASE_URL` (optional) unless other `Config` values are given. A missing or empty key does not fail
 * the layer: every call then fails with `AuthError` ("No API key is configured"), as with `layer`. A value
 * that is present but invalid fails the layer with its `ConfigError`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  options: ConfigOptions = {}
): Layer.Layer<StudioClient, ValidationError | ConfigError.ConfigError, HttpClient.HttpClient> =>
  Layer.effect(
    StudioClient,
    Effect.gen(function*() {
      const { apiKey: apiKeyConfig, baseUrl: baseUrlConfig, ...rest } = options
      const apiKey = yield* Config.option(apiKeyConfig ?? Config.redacted("STUDIO_API_KEY"))
      const baseUrl = yield* Config.option(baseUrlConfig ?? Config.string("STUDIO_BASE_URL"))
      return yield* make({
        ...rest,
        apiKey: Option.getOrUndefined(Option.filter(apiKey, (key) => Redacted.value(key).trim() !== "")),
        baseUrl: Option.getOrUndefined(Option.filter(baseUrl, (url) => url.trim() !== ""))
      })
    })
  )

/**
 * Reads an API key as `Redacted` (for `layer`), so it never shows in logs or errors.
 *
 * @since 0.1.0
 * @category constructors
 */
export const apiKey = (key: string): Redacted.Redacted => Redacted.make(key)
