/**
 * A call whose answer is a stream of server-sent events: the request sent (with its retries, as any call),
 * then its body read with the idle timeout and decoded into events, each parsed by the operation. A body
 * that offers a reader of its own (`studio-effect/undici`, see `bodyReader.ts`) is read through it, without
 * a stream in between.
 */
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { afterDoneBytes } from "studio-effect-core/sse/SseParser"
import { type RequestError, TimeoutError, type TransportError } from "../../StudioError.js"
import { bodyReaderOf } from "../stream/bodyReader.js"
import { watchIdle, withIdleTimeout } from "../stream/idleTimeout.js"
import { type Read, streamOf } from "../stream/read.js"
import { afterDoneWindow, decodeEventsWith, type EventError, eventsOf } from "../stream/sse.js"
import type { Attempts } from "./attempt.js"
import type { Settings } from "./options.js"
import type { StreamRequest } from "./request.js"
import type { RequestBuilder } from "./requestBuilder.js"
import { transportError } from "./transportError.js"

/** An event stream as it opened: the answer (its status and headers) and the stream of its events. */
export interface OpenedEvents<A> {
  readonly response: HttpClientResponse.HttpClientResponse
  readonly events: Stream.Stream<A, RequestError>
}

/** Opens event streams for one client; each event's error is given to `scrubbed` before it is emitted. */
export const makeEvents = (context: {
  readonly baseUrl: string
  readonly maxEventSize: number
  readonly settings: Effect.Effect<Settings>
  readonly builder: RequestBuilder
  readonly attempts: Attempts
}) =>
<A>(
  request: StreamRequest,
  parse: (data: string) => A | EventError<RequestError>,
  scrubbed: (error: RequestError) => RequestError
): Effect.Effect<OpenedEvents<A>, RequestError, Scope.Scope> => {
  const { attempts } = context
  const url = context.baseUrl + request.path
  const decodeOptions = { operation: request.operation, maxEventSize: context.maxEventSize }
  return Effect.gen(function*() {
    const settings = yield* context.settings
    const httpRequest = context.builder.build("POST", request.path, request.body, settings.headers, {
      accept: "text/event-stream"
    })
    const response = yield* attempts.withRetries(
      request.operation,
      settings.maxRetries,
      attempts.withAttemptTimeout(httpRequest, settings.timeout, attempts.send(request.operation, httpRequest))
    )
    const onIdle = () =>
      new TimeoutError({ phase: "stream-idle", timeout: settings.streamIdleTimeout, method: "POST", url })
    const readerOf = bodyReaderOf(response)
    let events: Read<A, RequestError>
    if (readerOf === undefined) {
      const bytes = withIdleTimeout(
        Stream.mapError(response.stream, transportError),
        settings.streamIdleTimeout,
        onIdle
      )
      events = yield* decodeEventsWith("POST", url, parse, decodeOptions)(bytes)
    } else {
      const clock = yield* Effect.clock
      const reader = readerOf<TransportError | TimeoutError>(
        (cause) =>
          transportError(
            new HttpClientError.ResponseError({ request: httpRequest, response, reason: "Decode", cause })
          ),
        () => clock.unsafeCurrentTimeMillis()
      )
      yield* Effect.addFinalizer(() => Effect.sync(reader.close))
      yield* watchIdle(reader.reader, settings.streamIdleTimeout, onIdle)
      const afterDone = reader.finish(afterDoneBytes, Duration.toMillis(afterDoneWindow))
      events = eventsOf("POST", url, parse, decodeOptions, reader.read, afterDone)
    }
    return { response, events: streamOf(Effect.mapError(events, scrubbed)) }
  })
}
