/**
 * Decoding one streamed chunk from its event's `data`. The usual chunk (string and number fields, no tool
 * calls) is checked by hand and completed in place with the schema's defaults, which is several times
 * faster than the schema on the stream's hot path; every other field stays as the service sent it, as the
 * schema keeps it. Any other value goes to the `ChatCompletionChunk` schema, which stays the one
 * definition of a chunk: a property test holds the two to the same results.
 */
import * as Schema from "effect/Schema"
import { ChatCompletionChunk, type ChatCompletionChunk as Chunk } from "../../ChatSchema.js"
import { DecodeError } from "../../StudioError.js"
import { EventError } from "../stream/sse.js"
import { decodeReason } from "./issues.js"

const decodeChunk = Schema.decodeUnknownEither(ChatCompletionChunk)

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isOptionalString = (value: unknown) => value === undefined || typeof value === "string"
const isOptionalText = (value: unknown) => value === undefined || value === null || typeof value === "string"

/**
 * Whether a parsed event is a usual chunk: string and number fields where the schema has them, no tool
 * calls. Anything else is left to the schema, which also words the errors.
 */
const isUsualChunk = (json: unknown): json is Record<string, any> => {
  if (!isObject(json) || typeof json.id !== "string" || !Array.isArray(json.choices)) return false
  for (const choice of json.choices as Array<unknown>) {
    if (!isObject(choice) || typeof choice.index !== "number" || !isObject(choice.delta)) return false
    const delta = choice.delta
    const { content, reasoning_content } = delta
    if (!isOptionalString(delta.role) || !isOptionalText(content) || !isOptionalText(reasoning_content)) return false
    if (delta.tool_calls !== undefined && delta.tool_calls !== null) return false
    // log probabilities are rare: a chunk with them goes to the schema
    if (choice.logprobs !== undefined && choice.logprobs !== null) return false
    const finishReason = choice.finish_reason
    if (finishReason !== undefined && finishReason !== null && typeof finishReason !== "string") return false
  }
  const meta = json.meta
  if (meta !== undefined && meta !== null && !isObject(meta)) return false
  const usage = json.usage
  return usage === undefined || usage === null || (
    isObject(usage) && typeof usage.prompt_tokens === "number" && typeof usage.completion_tokens === "number" &&
    typeof usage.total_tokens === "number"
  )
}

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
  if (isUsualChunk(json)) {
    // the parsed value is ours alone: fill in the defaults and hand it on
    for (const choice of json.choices) {
      if (choice.finish_reason === undefined) choice.finish_reason = null
    }
    if (json.usage === undefined) json.usage = null
    return json as Chunk
  }
  const result = decodeChunk(json)
  return result._tag === "Right"
    ? result.right
    : new EventError(
      new DecodeError({ operation: "chat.stream", reason: decodeReason(result.left.issue), body: data.slice(0, 1024) })
    )
}
