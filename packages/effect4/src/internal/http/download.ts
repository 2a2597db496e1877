/**
 * A call whose answer is read as bytes (a file's download): the request sent (with its retries, as any
 * call), then its body given as a stream, read with the idle timeout and bounded by the call's `maxSize`
 * (a longer answer fails with `DecodeError` as soon as it is known: from `Content-Length`, or once that
 * many bytes arrived, reading no further).
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { tooLargeReason } from "studio-effect-core/bytes/sizeLimits"
import { DecodeError, type RequestError, TimeoutError } from "../../StudioError.js"
import type { Attempts } from "./attempt.js"
import { declaredLength, releaseBody } from "./body.js"
import { bodyReads, mapPullError } from "./bodyReads.js"
import type { Settings } from "./options.js"
import type { BytesRequest } from "./request.js"
import type { RequestBuilder } from "./requestBuilder.js"

/** Opens downloads for one client; each error is given to `scrubbed` before it is emitted. */
export const makeDownloads = (context: {
  readonly baseUrl: string
  readonly settings: Effect.Effect<Settings>
  readonly builder: RequestBuilder
  readonly attempts: Attempts
}) =>
(
  request: BytesRequest,
  scrubbed: (error: RequestError) => RequestError
): Effect.Effect<Stream.Stream<Uint8Array, RequestError>, RequestError, Scope.Scope> => {
  const { attempts } = context
  const { maxSize, operation } = request
  const url = context.baseUrl + request.path
  const tooLarge = () => new DecodeError({ operation, reason: tooLargeReason("maxDownloadSize", maxSize) })
  return Effect.gen(function*() {
    const settings = yield* context.settings
    const httpRequest = context.builder.build("GET", request.path, undefined, settings.headers, { accept: "*/*" })
    const response = yield* attempts.withRetries(
      operation,
      settings.maxRetries,
      attempts.withAttemptTimeout(httpRequest, settings.timeout, attempts.send(operation, httpRequest))
    )
    const length = declaredLength(response)
    if (length !== undefined && length > maxSize) {
      return yield* Effect.andThen(releaseBody(response), Effect.fail(tooLarge()))
    }
    const { read } = yield* bodyReads(
      response,
      settings.streamIdleTimeout,
      () => new TimeoutError({ phase: "stream-idle", timeout: settings.streamIdleTimeout, method: "GET", url })
    )
    let size = 0
    const bounded = Effect.flatMap(read, (chunks) => {
      for (const bytes of chunks) size += bytes.length
      return size > maxSize ? Effect.fail(tooLarge()) : Effect.succeed(chunks)
    })
    return Stream.fromPull(Effect.succeed(mapPullError(bounded, scrubbed)))
  }).pipe(Effect.mapError(scrubbed))
}
