/**
 * Reading a request body with a size limit. A body whose declared `content-length` is over the limit is
 * refused without reading it; any other body is counted as it arrives and reading stops as soon as it
 * passes the limit, so nothing larger than the limit is ever held.
 */
import * as ByteSize from "effect/ByteSize"
import * as Effect from "effect/Effect"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Stream from "effect/Stream"

/** The default limit of a request body: 1 MiB. */
export const defaultMaxBodyBytes = 1024 * 1024

/** The body is larger than the limit. */
export class BodyTooLarge {
  readonly _tag = "BodyTooLarge"
  constructor(readonly limit: number) {}
}

/** The body could not be read (the client went away, or its stream failed). */
export class BodyUnreadable {
  readonly _tag = "BodyUnreadable"
}

/** The `detail` of a 413. */
export const tooLargeDetail = (limit: number) => `Request body too large: the limit is ${limit} bytes.`

/** The `content-length` the request declares, when it declares a valid one. */
export const declaredLength = (request: HttpServerRequest.HttpServerRequest): number | undefined => {
  const header = request.headers["content-length"]
  return header !== undefined && /^\s*\d+\s*$/.test(header) ? Number(header) : undefined
}

const decoder = new TextDecoder()

/**
 * Reads a body that came over a transport (Node.js, or a web `Request`) under
 * `HttpIncomingMessage.MaxBodySize`. Over Node.js the rest of a body past the limit is left to drain
 * rather than destroyed, so the 413 still reaches the client.
 */
const readLimited = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Uint8Array, BodyTooLarge | BodyUnreadable> =>
  request.arrayBuffer.pipe(
    Effect.map((buffer) => new Uint8Array(buffer)),
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(limit)),
    Effect.mapError((error) =>
      error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
        ? new BodyTooLarge(limit)
        : new BodyUnreadable()
    )
  )

/**
 * Reads the body of a request made in memory from a client's request (`HttpServerRequest.fromClientRequest`),
 * whose `text` would collect the whole body whatever `MaxBodySize` says: its stream is counted as it is
 * pulled, and pulling stops past the limit, so an endless body is never collected.
 */
const readCounted = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Uint8Array, BodyTooLarge | BodyUnreadable> =>
  Effect.suspend(() => {
    let size = 0
    const counted = Stream.tap(request.stream, (chunk) => {
      size += chunk.length
      return size > limit ? Effect.fail(new BodyTooLarge(limit)) : Effect.void
    })
    return Stream.mkUint8Array(counted)
  }).pipe(Effect.catchTag("HttpServerError", () => Effect.fail(new BodyUnreadable())))

/** The body as text (UTF-8), or `BodyTooLarge` as soon as it is known to pass `limit` bytes. */
export const readText = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<string, BodyTooLarge | BodyUnreadable> =>
  Effect.map(readBytes(request, limit), (bytes) => decoder.decode(bytes))

/** The body's bytes, or `BodyTooLarge` as soon as it is known to pass `limit` bytes. */
export const readBytes = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Uint8Array, BodyTooLarge | BodyUnreadable> => {
  const declared = declaredLength(request)
  if (declared !== undefined && declared > limit) return Effect.fail(new BodyTooLarge(limit))
  return HttpClientRequest.isHttpClientRequest(request.source)
    ? readCounted(request, limit)
    : readLimited(request, limit)
}
