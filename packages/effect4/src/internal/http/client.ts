/**
 * The client service's requests: the base URL, auth, `User-Agent` and default headers added to every
 * request, the per-attempt timeout, retries, the mapping of every answer to a typed result or error, the
 * idle timeout of streams, and the scrubbing of secrets from every error.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { constTrue } from "effect/Function"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as HttpTraceContext from "effect/http/HttpTraceContext"
import type * as Pull from "effect/Pull"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Tracer from "effect/Tracer"
import { redactAttributes as withoutSecrets } from "studio-effect-core/secrets/redactSecrets"
import { withCredentials } from "studio-effect-core/secrets/requestSecrets"
import { defaultMaxEventSize } from "studio-effect-core/sse/SseParser"
import { type RateLimitFigures, rateLimitOf } from "studio-effect-core/wire/rateLimit"
import { requestIdOf } from "studio-effect-core/wire/responseErrors"
import {
  AuthError,
  DecodeError,
  type RequestError,
  type StudioError,
  TimeoutError,
  type ToolCallError
} from "../../StudioError.js"
import { decodeReason } from "../schema/issues.js"
import { withIdleTimeout } from "../stream/idle.js"
import { type EventError, eventsOf } from "../stream/sse.js"
import { defaultMaxResponseSize, readBody, readErrorBody } from "./body.js"
import * as Deadlines from "./deadlines.js"
import { withoutRedirects } from "./redirect.js"
import { fromResponse } from "./responseError.js"
import { retrySchedule, serviceCannotHaveActed } from "./retry.js"
import { scrub, secretsOf, withRedactedHeaders } from "./scrub.js"
import { transportError } from "./transportError.js"
import { version } from "./version.js"

/** The settings that can change for one call (see `StudioClient.withRequestOptions`). */
export interface RequestOptions {
  readonly maxRetries?: number | undefined
  /**
   * Retry the creates the service bills or stores (a run, an assistant, an assistant run) on every
   * retryable error, as other calls are. By default they are retried only where the service cannot have
   * acted (see `docs/reliability.md`), so that a retry never creates twice.
   */
  readonly retryCreates?: boolean | undefined
  readonly timeout?: Duration.Input | undefined
  readonly streamIdleTimeout?: Duration.Input | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** Options of the client. */
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

/** One request with a JSON answer. */
export interface JsonRequest<A, I> {
  /** The operation's name, used in errors and spans: `chat.create`, `maestro.create`, ... */
  readonly operation: string
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  /** The path after the base URL, already URL-encoded. */
  readonly path: string
  /** The JSON body. */
  readonly body?: unknown
  /** A body sent as it is (a multipart form), instead of a JSON body. */
  readonly raw?: RawBody | undefined
  readonly response: Schema.Codec<A, I>
  /** The decoder of the answer, made once by its operation; one from `response` when not given. */
  readonly decode?: ResponseDecoder<A> | undefined
  /**
   * A create the service bills or stores: retried only where the service cannot have acted, unless the
   * call's settings say `retryCreates`.
   */
  readonly creates?: boolean | undefined
}

/**
 * An operation's value with what its answer said about it: the status, the headers (names in lower case),
 * the request id the service gave it, and the rate-limit figures of the key.
 */
export interface WithResponse<A> {
  readonly value: A
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly requestId: string | undefined
  readonly rateLimit: RateLimitFigures
}

/** A body of bytes with its content type, such as a `multipart/form-data` form. */
export interface RawBody {
  readonly bytes: Uint8Array
  readonly contentType: string
}

/** One request whose answer is a byte stream (server-sent events). */
export interface StreamRequest {
  readonly operation: string
  readonly path: string
  readonly body: unknown
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

/** A decoder of an answer's JSON; synchronous, so no effect is built per answer. */
export type ResponseDecoder<A> = (input: unknown) => Result.Result<A, SchemaIssue.Issue>

/** The decoder of a response schema, for a request whose operation brings none of its own. */
export const responseDecoder = <A, I>(schema: Schema.Codec<A, I>): ResponseDecoder<A> =>
  SchemaParser.decodeUnknownResult(schema)

/**
 * The trace context of the current span (the operation's `studio.<name>`), as the platform's own span
 * would have sent it: `traceparent` and `b3`; none when `HttpClient.TracerPropagationEnabled` is off or
 * `Tracer.DisablePropagation` is on.
 */
const traceContext = (): Readonly<Record<string, string>> | undefined => {
  const context = Fiber.getCurrent()?.context
  if (
    context === undefined || !Context.get(context, HttpClient.TracerPropagationEnabled) ||
    Context.get(context, Tracer.DisablePropagation)
  ) {
    return undefined
  }
  const span = Context.getOrUndefined(context, Tracer.ParentSpan)
  return span !== undefined && span._tag === "Span" ? HttpTraceContext.toHeaders(span) : undefined
}

/** A pull whose errors (not its end) are mapped by `f`. */
const mapPullError = <A, E, E2>(pull: Pull.Pull<A, E>, f: (error: E) => E2): Pull.Pull<A, E2> =>
  Effect.mapError(pull, (error) => Cause.isDone(error) ? error : f(error))

/** Whether an object has no own enumerable key. */
export const isEmpty = (object: object): boolean => {
  for (const _ in object) return false
  return true
}

const missingKey = new AuthError({ detail: "No API key is configured (set STUDIO_API_KEY or pass apiKey)." })

/**
 * The operations' requests make no span of the platform's own under `studio.<name>`: it would repeat the
 * method and address. The operation's span is propagated instead (`withTraceContext`).
 */
const withoutPlatformSpan = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  HttpClient.transform(client, (effect) => Effect.provideService(effect, HttpClient.TracerDisabledWhen, constTrue))

/** The client service over `transport`. */
export const makeService = (config: ClientConfig, transport: HttpClient.HttpClient) => {
  const { baseUrl, options } = config
  const apiKey = options.apiKey
  const maxResponseSize = options.maxResponseSize ?? defaultMaxResponseSize
  // the headers every request gets unless it sets its own, in the order they override each other
  const defaultHeaders: Record<string, string> = {
    "User-Agent": `studio-effect/${version}`,
    "Accept": "application/json",
    ...(apiKey === undefined ? {} : { "Authorization": `Bearer ${Redacted.value(apiKey)}` }),
    ...options.headers
  }
  /** A request as sent: the base URL before its path, and its own headers (per-call options, a stream's
   * `Accept`) over the defaults. */
  const addDefaults = (request: HttpClientRequest.HttpClientRequest) =>
    HttpClientRequest.setHeaders(
      HttpClientRequest.setHeaders(HttpClientRequest.prependUrl(request, baseUrl), defaultHeaders),
      request.headers
    )
  const noRedirects = withoutRedirects(transport)
  const withDefaults = withRedactedHeaders(noRedirects).pipe(HttpClient.mapRequest(addDefaults))
  const httpClient = options.transformClient === undefined ? withDefaults : options.transformClient(withDefaults)
  // Without middleware of the user's, the operations add the defaults themselves and send on the transport:
  // the platform's span is off for them (below), so they need no redacted header names. With middleware,
  // they go through `httpClient`.
  const direct = options.transformClient === undefined
  /** The address of a request as sent, for errors. */
  const urlOf = (request: HttpClientRequest.HttpClientRequest) => direct ? request.url : baseUrl + request.url
  const operationsClient = withoutPlatformSpan(direct ? noRedirects : httpClient)
  const maxEventSize = options.maxEventSize ?? defaultMaxEventSize
  const deadlines = Deadlines.make()

  /**
   * A call's request, made once: its own headers (the call's settings, a stream's `Accept`) over the
   * defaults, and the trace context of the operation's span (it is the same for every attempt).
   */
  const buildRequest = (
    method: JsonRequest<unknown, unknown>["method"],
    path: string,
    body: unknown,
    settingsHeaders: Readonly<Record<string, string>>,
    options: { readonly raw?: RawBody | undefined; readonly accept?: string | undefined } = {}
  ) => {
    const headers: Record<string, string> = direct ? { ...defaultHeaders, ...settingsHeaders } : { ...settingsHeaders }
    if (options.accept !== undefined) {
      for (const name in headers) if (name.toLowerCase() === "accept") delete headers[name]
      headers["accept"] = options.accept
    }
    const trace = traceContext()
    if (trace !== undefined) Object.assign(headers, trace)
    const base = HttpClientRequest.make(method)(direct ? baseUrl + path : path, { headers })
    const raw = options.raw
    return raw !== undefined
      ? HttpClientRequest.bodyUint8Array(base, raw.bytes, raw.contentType)
      : body === undefined
      ? base
      : HttpClientRequest.bodyJsonUnsafe(base, body)
  }

  /** Sends once; a non-200 answer becomes the error of its status. */
  const send = (operation: string, request: HttpClientRequest.HttpClientRequest) =>
    operationsClient.execute(request).pipe(
      Effect.mapError(transportError),
      Effect.flatMap((response) =>
        response.status === 200 ? Effect.succeed(response) : Effect.flatMap(
          Effect.zip(readErrorBody(response), Clock.currentTimeMillis),
          ([body, now]) =>
            Effect.fail(fromResponse({
              operation,
              method: request.method,
              url: urlOf(request),
              status: response.status,
              headers: response.headers,
              body,
              now
            }))
        )
      )
    )

  /** Bounds an attempt in time; when the time is up, the attempt is interrupted, which aborts its request. */
  const withAttemptTimeout = <A>(
    request: HttpClientRequest.HttpClientRequest,
    timeout: Duration.Duration,
    effect: Effect.Effect<A, RequestError>
  ): Effect.Effect<A, RequestError> =>
    deadlines.within(
      effect,
      timeout,
      () => new TimeoutError({ phase: "attempt", timeout, method: request.method, url: urlOf(request) })
    )

  const logFailure = (operation: string, error: RequestError) =>
    Effect.logDebug("studio request attempt failed").pipe(Effect.annotateLogs({ operation, error: error._tag }))

  /**
   * Retries as `retrySchedule` says. The schedule is driven only once an attempt failed: a first attempt
   * that succeeds (the usual case) costs nothing here. The first failure is handed to the schedule as the
   * first attempt's, so its decisions are the same as `Effect.retry(attempt, schedule)`.
   */
  const withRetries = <A>(
    operation: string,
    maxRetries: number,
    attempt: Effect.Effect<A, RequestError>,
    retryable?: (error: StudioError) => boolean
  ): Effect.Effect<A, RequestError> =>
    Effect.catch(attempt, (first) => {
      const logged = Effect.andThen(logFailure(operation, first), Effect.fail(first))
      if (maxRetries === 0) return logged
      let pending = true
      const again = Effect.suspend(() => {
        if (!pending) return Effect.tapError(attempt, (error) => logFailure(operation, error))
        pending = false
        return logged
      })
      return Effect.retry(again, retrySchedule(maxRetries, retryable))
    })

  const decodeBody = <A>(
    operation: string,
    response: HttpClientResponse.HttpClientResponse,
    decode: ResponseDecoder<A>
  ) =>
    Effect.flatMap(
      Effect.catchTag(
        readBody(response, maxResponseSize, operation),
        "HttpClientError",
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
        const decoded = decode(json)
        return Result.isSuccess(decoded)
          ? Effect.succeed(decoded.success)
          : Effect.fail(decodeError(decodeReason(decoded.failure)))
      }
    )

  /** Scrubs the error of a call whose request had `body`. */
  const scrubbing = (body: unknown) => (error: RequestError) => scrub(error, secretsOf(apiKey, body))

  /** Sends a JSON request as the settings say, and gives what `answer` makes of the response and its value. */
  const exchange = <A, I, B>(
    request: JsonRequest<A, I>,
    answer: (response: HttpClientResponse.HttpClientResponse, value: A) => B
  ): Effect.Effect<B, RequestError> =>
    Effect.flatMap(config.settings, (settings) => {
      if (apiKey === undefined) return Effect.fail(missingKey)
      const httpRequest = buildRequest(request.method, request.path, request.body, settings.headers, {
        raw: request.raw
      })
      const decode = request.decode ?? responseDecoder(request.response)
      const attempt = withAttemptTimeout(
        httpRequest,
        settings.timeout,
        Effect.flatMap(
          send(request.operation, httpRequest),
          (response) => Effect.map(decodeBody(request.operation, response, decode), (value) => answer(response, value))
        )
      )
      const retryable = request.creates === true && !settings.retryCreates ? serviceCannotHaveActed : undefined
      return Effect.mapError(
        withRetries(request.operation, settings.maxRetries, attempt, retryable),
        scrubbing(request.body)
      )
    })

  const json = <A, I>(request: JsonRequest<A, I>): Effect.Effect<A, RequestError> =>
    exchange(request, (_, value) => value)

  const jsonWithResponse = <A, I>(request: JsonRequest<A, I>): Effect.Effect<WithResponse<A>, RequestError> =>
    exchange(request, (response, value) => {
      const headers = response.headers
      return {
        value,
        status: response.status,
        headers: { ...headers },
        requestId: requestIdOf(headers),
        rateLimit: rateLimitOf(headers)
      }
    })

  const openEvents = <A>(
    request: StreamRequest,
    parse: (data: string) => A | EventError<RequestError>
  ): Effect.Effect<Stream.Stream<A, RequestError>, RequestError, Scope.Scope> => {
    const url = baseUrl + request.path
    const decodeOptions = { operation: request.operation, maxEventSize }
    const scrubbed = scrubbing(request.body)
    return Effect.gen(function*() {
      if (apiKey === undefined) {
        return yield* missingKey
      }
      const settings = yield* config.settings
      const httpRequest = buildRequest("POST", request.path, request.body, settings.headers, {
        accept: "text/event-stream"
      })
      const response = yield* withRetries(
        request.operation,
        settings.maxRetries,
        withAttemptTimeout(httpRequest, settings.timeout, send(request.operation, httpRequest))
      )
      const read = yield* withIdleTimeout(
        mapPullError(yield* Stream.toPull(response.stream), transportError),
        settings.streamIdleTimeout,
        () => new TimeoutError({ phase: "stream-idle", timeout: settings.streamIdleTimeout, method: "POST", url })
      )
      const pull = eventsOf("POST", url, parse, decodeOptions, read)
      return Stream.fromPull(Effect.succeed(mapPullError(pull, scrubbed)))
    }).pipe(Effect.mapError(scrubbed))
  }

  const redact = <E extends StudioError | ToolCallError>(error: E, body?: unknown): E =>
    scrub(error, secretsOf(apiKey, body))

  // the key's forms, found once: most calls carry no other secret
  const keySecrets = secretsOf(apiKey, undefined)
  // a call redacts its span's attributes and then its answer's with the same body: its secrets are found once
  const bodySecrets = new WeakMap<object, ReadonlyArray<string>>()
  const secretsWith = (body: unknown): ReadonlyArray<string> => {
    if (typeof body !== "object" || body === null) return keySecrets
    let secrets = bodySecrets.get(body)
    if (secrets === undefined) {
      secrets = withCredentials(keySecrets, body)
      bodySecrets.set(body, secrets)
    }
    return secrets
  }
  const redactAttributes = <A extends Readonly<Record<string, unknown>>>(attributes: A, body?: unknown): A =>
    withoutSecrets(attributes, secretsWith(body))

  return { baseUrl, json, jsonWithResponse, openEvents, redact, redactAttributes }
}
