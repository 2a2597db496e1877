/**
 * One attempt of a call and its retries: send once (a non-200 answer becomes the error of its status), bound
 * the attempt in time, retry as the schedule says, and decode a JSON answer.
 */
import * as Clock from "effect/Clock"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Result from "effect/Result"
import { parseJsonLines } from "studio-effect-core/wire/batches"
import { requestIdOf } from "studio-effect-core/wire/responseErrors"
import { DecodeError, type RequestError, type StudioError, TimeoutError } from "../../StudioError.js"
import { decodeReason } from "../schema/issues.js"
import * as AttemptTimeout from "./attemptTimeout.js"
import { readBody, readErrorBody } from "./body.js"
import type { ResponseDecoder } from "./request.js"
import { fromResponse } from "./responseError.js"
import { retrySchedule } from "./retry.js"
import { transportError } from "./transportError.js"

/** The attempts of one client, over the transport its requests are sent on. */
export const makeAttempts = (context: {
  readonly client: HttpClient.HttpClient
  readonly urlOf: (request: HttpClientRequest.HttpClientRequest) => string
  readonly maxResponseSize: number
}) => {
  const { client, maxResponseSize, urlOf } = context
  const timeouts = AttemptTimeout.make(client)

  /** Sends once; a non-200 answer becomes the error of its status. */
  const send = (operation: string, request: HttpClientRequest.HttpClientRequest) =>
    client.execute(request).pipe(
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
    timeouts.within(
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
    decode: ResponseDecoder<A>,
    lines = false
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
        if (lines) {
          // JSON Lines: one value a line, decoded as the array of them
          const parsed = parseJsonLines(text)
          if (parsed._tag === "Broken") return Effect.fail(decodeError(`line ${parsed.line} of the body is not JSON`))
          json = parsed.values
        } else {
          try {
            json = JSON.parse(text)
          } catch {
            return Effect.fail(decodeError("the body is not JSON"))
          }
        }
        const decoded = decode(json)
        return Result.isSuccess(decoded)
          ? Effect.succeed(decoded.success)
          : Effect.fail(decodeError(decodeReason(decoded.failure)))
      }
    )

  return { send, withAttemptTimeout, withRetries, decodeBody }
}

/** The attempts of one client (see `makeAttempts`). */
export type Attempts = ReturnType<typeof makeAttempts>
