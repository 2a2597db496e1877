/**
 * Reading a response's body with a bound, so that no answer can make the client hold more than a fixed
 * amount of memory: a non-streamed answer up to `maxResponseSize` (larger is a `DecodeError`, not retried),
 * and an error's body only in part (its first `errorBodyLimit` bytes, which is what an error keeps).
 */
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { concatBytes } from "studio-effect-core/bytes/concatBytes"
import { sizeIssues, tooLargeReason } from "studio-effect-core/bytes/sizeLimits"
import { DecodeError, ValidationError, ValidationIssue } from "../../StudioError.js"

/** The largest non-streamed answer when no `maxResponseSize` is given: 32 MiB. */
export const defaultMaxResponseSize = 32 * 1024 * 1024

/** How much of an error's body is read (and kept): 8 KiB. */
const errorBodyLimit = 8 * 1024

/**
 * Checks size limits (the client's `maxResponseSize` and `maxEventSize`, `accumulate`'s
 * `maxAccumulatedSize`): each, when given, a whole number, at least 1.
 */
export const checkSizes = (
  sizes: Readonly<Record<string, number | undefined>>
): Effect.Effect<void, ValidationError> => {
  const issues = sizeIssues(sizes).map((issue) => new ValidationIssue(issue))
  return issues.length === 0
    ? Effect.void
    : Effect.fail(new ValidationError({ operation: "client", source: "client", issues }))
}

/** The declared length of a body the transport hands over as sent (no content coding to undo). */
export const declaredLength = (response: HttpClientResponse.HttpClientResponse): number | undefined => {
  const encoding = response.headers["content-encoding"]
  if (encoding !== undefined && encoding !== "identity") return undefined
  const header = response.headers["content-length"]
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined
}

const decoder = new TextDecoder("utf-8")

/**
 * The first `limit` bytes of the body as text, and whether there was more. Reading stops there and the
 * body is released (the stream's finalizer cancels it), so the rest is never downloaded.
 */
const readAtMost = (
  response: HttpClientResponse.HttpClientResponse,
  limit: number
): Effect.Effect<{ readonly text: string; readonly truncated: boolean }, HttpClientError.ResponseError> =>
  Effect.suspend(() => {
    const parts: Array<Uint8Array> = []
    let size = 0
    let truncated = false
    return response.stream.pipe(
      Stream.runForEachWhile((bytes) =>
        Effect.sync(() => {
          if (size + bytes.length > limit) {
            truncated = true
            if (size < limit) parts.push(bytes.subarray(0, limit - size))
            size = Math.min(size + bytes.length, limit)
            return false
          }
          parts.push(bytes)
          size += bytes.length
          return true
        })
      ),
      Effect.map(() => ({ text: decoder.decode(concatBytes(parts, size)), truncated }))
    )
  })

/**
 * The whole body of a 200 as text, if it is at most `limit` bytes; a larger one fails with `DecodeError`
 * as soon as it is known (from `Content-Length`, or once that many bytes arrived), without reading on.
 */
export const readBody = (
  response: HttpClientResponse.HttpClientResponse,
  limit: number,
  operation: string
): Effect.Effect<string, DecodeError | HttpClientError.ResponseError> => {
  const tooLarge = () =>
    new DecodeError({
      operation,
      reason: tooLargeReason("maxResponseSize", limit)
    })
  const length = declaredLength(response)
  // a declared length within the limit bounds the body: the transport reads no more than that
  if (length !== undefined) {
    // over the limit: release the body (reading stops at its first bytes), then fail
    return length > limit
      ? Effect.zipRight(releaseBody(response), Effect.fail(tooLarge()))
      : response.text
  }
  return Effect.flatMap(
    readAtMost(response, limit),
    ({ text, truncated }) => truncated ? Effect.fail(tooLarge()) : Effect.succeed(text)
  )
}

/** The first `errorBodyLimit` bytes of an error's body as text (empty when it cannot be read). */
export const readErrorBody = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<string> =>
  readAtMost(response, errorBodyLimit).pipe(
    Effect.map(({ text }) => text),
    Effect.orElseSucceed(() => "")
  )

/** Releases a body without reading it (its stream's finalizer cancels it), so the rest is never downloaded. */
export const releaseBody = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<void> =>
  Effect.ignore(readAtMost(response, 0))
