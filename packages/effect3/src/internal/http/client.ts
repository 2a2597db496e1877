/**
 * The client service's requests, from its parts: each request built with the base URL, auth, `User-Agent`
 * and default headers (`requestBuilder.ts`), sent in attempts bounded in time and retried (`attempt.ts`),
 * its answer decoded to a typed result or error, or read as events (`events.ts`), and every error scrubbed
 * of the call's secrets (`scrub.ts`).
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type * as Stream from "effect/Stream"
import { redactAttributes as withoutSecrets } from "studio-effect-core/secrets/redactSecrets"
import { withCredentials } from "studio-effect-core/secrets/requestSecrets"
import { defaultMaxEventSize } from "studio-effect-core/sse/SseParser"
import { responseMetadata } from "studio-effect-core/wire/responseMetadata"
import { AuthError, type RequestError, type StudioError, type ToolCallError } from "../../StudioError.js"
import type { EventError } from "../stream/sse.js"
import { makeAttempts } from "./attempt.js"
import { defaultMaxResponseSize } from "./body.js"
import { makeDownloads } from "./download.js"
import { makeEvents, type OpenedEvents } from "./events.js"
import type { ClientConfig } from "./options.js"
import {
  type BytesRequest,
  type JsonRequest,
  responseDecoder,
  type StreamRequest,
  type WithResponse
} from "./request.js"
import { makeRequestBuilder } from "./requestBuilder.js"
import { serviceCannotHaveActed } from "./retry.js"
import { scrub, secretsOf } from "./scrub.js"

const missingKey = new AuthError({ detail: "No API key is configured (set STUDIO_API_KEY or pass apiKey)." })

/** The client service over `transport`. */
export const makeService = (config: ClientConfig, transport: HttpClient.HttpClient) => {
  const { baseUrl, options } = config
  const apiKey = options.apiKey
  const builder = makeRequestBuilder(config, transport)
  const attempts = makeAttempts({
    client: builder.client,
    urlOf: builder.urlOf,
    maxResponseSize: options.maxResponseSize ?? defaultMaxResponseSize,
    transport
  })
  const events = makeEvents({
    baseUrl,
    maxEventSize: options.maxEventSize ?? defaultMaxEventSize,
    settings: config.settings,
    builder,
    attempts
  })
  const downloads = makeDownloads({ baseUrl, settings: config.settings, builder, attempts })

  /** Scrubs the error of a call whose request had `body`. */
  const scrubbing = (body: unknown) => (error: RequestError) => scrub(error, secretsOf(apiKey, body))

  /** Sends a JSON request as the settings say, and gives what `answer` makes of the response and its value. */
  const exchange = <A, I, B>(
    request: JsonRequest<A, I>,
    answer: (response: HttpClientResponse.HttpClientResponse, value: A) => B
  ): Effect.Effect<B, RequestError> =>
    Effect.flatMap(config.settings, (settings) => {
      if (apiKey === undefined) return Effect.fail(missingKey)
      const httpRequest = builder.build(request.method, request.path, request.body, settings.headers, {
        raw: request.raw
      })
      const decode = request.decode ?? responseDecoder(request.response)
      const attempt = attempts.withAttemptTimeout(
        httpRequest,
        settings.timeout,
        Effect.flatMap(
          attempts.send(request.operation, httpRequest),
          (response) =>
            Effect.map(attempts.decodeBody(request.operation, response, decode, request.lines), (value) =>
              answer(response, value))
        )
      )
      const retryable = request.creates === true && !settings.retryCreates ? serviceCannotHaveActed : undefined
      // a streamed body is read as it is sent: it cannot be sent again
      const maxRetries = request.raw !== undefined && "stream" in request.raw ? 0 : settings.maxRetries
      return Effect.mapError(
        attempts.withRetries(request.operation, maxRetries, attempt, retryable),
        scrubbing(request.body)
      )
    })

  const json = <A, I>(request: JsonRequest<A, I>): Effect.Effect<A, RequestError> =>
    exchange(request, (_, value) => value)

  const jsonWithResponse = <A, I>(request: JsonRequest<A, I>): Effect.Effect<WithResponse<A>, RequestError> =>
    exchange(request, (response, value) => withResponse(response, value, request.body))

  /** `value` with the metadata of `response`, scrubbed of the secrets of a request with `body`. */
  const withResponse = <A>(
    response: HttpClientResponse.HttpClientResponse,
    value: A,
    body: unknown
  ): WithResponse<A> => ({
    value,
    ...responseMetadata(response.status, response.headers, secretsOf(apiKey, body))
  })

  /** Sends a streamed request and connects in the scope: the answer and its events. */
  const opened = <A>(
    request: StreamRequest,
    parse: (data: string) => A | EventError<RequestError>
  ): Effect.Effect<OpenedEvents<A>, RequestError, Scope.Scope> => {
    const scrubbed = scrubbing(request.body)
    return apiKey === undefined
      ? Effect.fail(scrubbed(missingKey))
      : Effect.mapError(events(request, parse, scrubbed), scrubbed)
  }

  const openEvents = <A>(
    request: StreamRequest,
    parse: (data: string) => A | EventError<RequestError>
  ): Effect.Effect<Stream.Stream<A, RequestError>, RequestError, Scope.Scope> =>
    Effect.map(opened(request, parse), (answer) => answer.events)

  const openEventsWithResponse = <A>(
    request: StreamRequest,
    parse: (data: string) => A | EventError<RequestError>
  ): Effect.Effect<WithResponse<Stream.Stream<A, RequestError>>, RequestError, Scope.Scope> =>
    Effect.map(opened(request, parse), (answer) => withResponse(answer.response, answer.events, request.body))

  const openBytes = (
    request: BytesRequest
  ): Effect.Effect<Stream.Stream<Uint8Array, RequestError>, RequestError, Scope.Scope> => {
    const scrubbed = scrubbing(undefined)
    return apiKey === undefined ? Effect.fail(scrubbed(missingKey)) : downloads(request, scrubbed)
  }

  const redact = <E extends StudioError | ToolCallError>(error: E, body?: unknown): E =>
    scrub(error, secretsOf(apiKey, body))

  // the key's forms, found once: most calls carry no other secret
  const keySecrets = secretsOf(apiKey, undefined)
  const redactAttributes = <A extends Readonly<Record<string, unknown>>>(attributes: A, body?: unknown): A =>
    withoutSecrets(attributes, body === undefined ? keySecrets : withCredentials(keySecrets, body))

  return {
    baseUrl,
    json,
    jsonWithResponse,
    openEvents,
    openEventsWithResponse,
    openBytes,
    redact,
    redactAttributes
  }
}
