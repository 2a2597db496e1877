/**
 * A call whose answer is a stream of server-sent events: the request sent (with its retries, as any call),
 * then its body read with the idle timeout and decoded into events, each parsed by the operation.
 */
import * as Effect from "effect/Effect"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { type RequestError, TimeoutError } from "../../StudioError.js"
import { type EventError, eventsOf } from "../stream/sse.js"
import type { Attempts } from "./attempt.js"
import { bodyReads, mapPullError } from "./bodyReads.js"
import type { Settings } from "./options.js"
import type { StreamRequest } from "./request.js"
import type { RequestBuilder } from "./requestBuilder.js"

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
    const { afterDone, read } = yield* bodyReads(
      response,
      settings.streamIdleTimeout,
      () => new TimeoutError({ phase: "stream-idle", timeout: settings.streamIdleTimeout, method: "POST", url })
    )
    const pull = eventsOf("POST", url, parse, decodeOptions, read, afterDone)
    return { response, events: Stream.fromPull(Effect.succeed(mapPullError(pull, scrubbed))) }
  })
}
