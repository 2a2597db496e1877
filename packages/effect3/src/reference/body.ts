/**
 * Reading a request body with a size limit. A body whose declared `content-length` is over the limit is
 * refused without reading it; a body without one (chunked) is counted as it arrives and reading stops as
 * soon as it passes the limit, so nothing larger than the limit is ever held.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
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

/** The part of a Node.js `IncomingMessage` the reader uses; `@effect/platform-node` requests carry one. */
interface NodeReadable {
  readonly readableEnded: boolean
  on(event: string, listener: (...args: Array<any>) => void): unknown
  off(event: string, listener: (...args: Array<any>) => void): unknown
  resume(): unknown
  pipe(...args: Array<any>): unknown
}

const isNodeReadable = (source: unknown): source is NodeReadable =>
  typeof source === "object" && source !== null && typeof (source as NodeReadable).on === "function" &&
  typeof (source as NodeReadable).off === "function" && typeof (source as NodeReadable).resume === "function" &&
  typeof (source as NodeReadable).pipe === "function" && typeof (source as NodeReadable).readableEnded === "boolean"

const decoder = new TextDecoder()

const concat = (parts: ReadonlyArray<Uint8Array>, size: number): Uint8Array => {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(size)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/**
 * Reads a Node.js request directly. Past the limit it stops keeping data and lets the rest drain away
 * unread instead of destroying the request (which would close the socket before the 413 is sent); the 413
 * carries `connection: close`, so the connection ends once the answer is out.
 */
const readNode = (source: NodeReadable, limit: number): Effect.Effect<Uint8Array, BodyTooLarge | BodyUnreadable> =>
  source.readableEnded ? Effect.succeed(new Uint8Array(0)) : Effect.async((resume) => {
    const parts: Array<Uint8Array> = []
    let size = 0
    const stop = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
      source.off("aborted", onError)
    }
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk
      size += bytes.length
      if (size > limit) {
        stop()
        parts.length = 0
        source.resume()
        resume(Effect.fail(new BodyTooLarge(limit)))
      } else {
        parts.push(bytes)
      }
    }
    const onEnd = () => {
      stop()
      resume(Effect.succeed(concat(parts, size)))
    }
    const onError = () => {
      stop()
      resume(Effect.fail(new BodyUnreadable()))
    }
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    source.on("aborted", onError)
    return Effect.sync(stop)
  })

/** Reads a body through `request.stream` (web requests, in memory); failing past the limit cancels the stream. */
const readStream = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Uint8Array, BodyTooLarge | BodyUnreadable> => {
  const source = request.source
  if (typeof Request !== "undefined" && source instanceof Request && source.body === null) {
    return Effect.succeed(new Uint8Array(0))
  }
  return Stream.runFoldEffect(
    request.stream,
    { parts: [] as Array<Uint8Array>, size: 0 },
    (acc, chunk): Effect.Effect<{ parts: Array<Uint8Array>; size: number }, BodyTooLarge> => {
      const size = acc.size + chunk.length
      if (size > limit) return Effect.fail(new BodyTooLarge(limit))
      acc.parts.push(chunk)
      return Effect.succeed({ parts: acc.parts, size })
    }
  ).pipe(
    Effect.map(({ parts, size }) => concat(parts, size)),
    Effect.catchIf(
      (error): error is Exclude<typeof error, BodyTooLarge> => !(error instanceof BodyTooLarge),
      () => Effect.fail(new BodyUnreadable())
    )
  )
}

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
  return isNodeReadable(request.source) ? readNode(request.source, limit) : readStream(request, limit)
}
