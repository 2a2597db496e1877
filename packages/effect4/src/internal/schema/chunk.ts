/**
 * Decoding one streamed chunk from its event's `data`: the usual chunk by the core's fast path
 * (`studio-effect-core/chat/usualChunk`), any other value by the `ChatCompletionChunk` schema, which stays the
 * one definition of a chunk (a property test holds the two to the same results) and words the errors.
 */
import * as Schema from "effect/Schema"
import { usualChunk } from "studio-effect-core/chat/usualChunk"
import { ChatCompletionChunk, type ChatCompletionChunk as Chunk } from "../../ChatSchema.js"
import { DecodeError } from "../../StudioError.js"
import { EventError } from "../stream/sse.js"
import { decodeReason } from "./issues.js"

const decodeChunk = Schema.decodeUnknownResult(ChatCompletionChunk)

/** The chunk an event carries, or the `DecodeError` that ends the stream. */
export const parseChunk = (data: string): Chunk | EventError<DecodeError> => {
  let json: unknown
  try {
    json = JSON.parse(data)
  } catch {
    return new EventError(
      new DecodeError({ operation: "chat.stream", reason: "an event is not JSON", body: data.slice(0, 1024) })
    )
  }
  const usual = usualChunk(json, data.length)
  if (usual !== undefined) return usual
  const result = decodeChunk(json)
  return result._tag === "Success"
    ? result.success
    : new EventError(
      new DecodeError({
        operation: "chat.stream",
        reason: decodeReason(result.failure.issue),
        body: data.slice(0, 1024)
      })
    )
}
