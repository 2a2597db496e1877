/**
 * Decoding one streamed chunk from its event's `data`. The usual chunk (string and number fields, no tool
 * calls) is checked by hand, which is several times faster than the schema on the stream's hot path; any
 * other value goes to the `ChatCompletionChunk` schema, which stays the one definition of a chunk: a
 * property test holds the two to the same results.
 */
import * as Schema from "effect/Schema"
import { ChatCompletionChunk, type ChatCompletionChunk as Chunk } from "../../ChatSchema.js"
import { DecodeError } from "../../StudioError.js"
import { EventError } from "../stream/sse.js"
import { decodeReason } from "./issues.js"

const decodeChunk = Schema.decodeUnknownResult(ChatCompletionChunk)

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isOptionalString = (value: unknown) => value === undefined || typeof value === "string"

/**
 * Whether a parsed event is a usual chunk: string and number fields where the schema has them, no tool
 * calls. Anything else is left to the schema, which also words the errors.
 */
const isUsualChunk = (json: unknown): json is Record<string, any> => {
  if (!isObject(json) || typeof json.id !== "string" || !Array.isArray(json.choices)) return false
  for (const choice of json.choices as Array<unknown>) {
    if (!isObject(choice) || typeof choice.index !== "number" || !isObject(choice.delta)) return false
    const delta = choice.delta
    const content = delta.content
    if (!isOptionalString(delta.role) || (content !== undefined && content !== null && typeof content !== "string")) {
      return false
    }
    if (delta.tool_calls !== undefined && delta.tool_calls !== null) return false
    const finishReason = choice.finish_reason
    if (finishReason !== undefined && finishReason !== null && typeof finishReason !== "string") return false
  }
  const usage = json.usage
  return usage === undefined || usage === null || (
    isObject(usage) && typeof usage.prompt_tokens === "number" && typeof usage.completion_tokens === "number" &&
    typeof usage.total_tokens === "number"
  )
}

/**
 * A usual chunk copied into exactly what `ChatCompletionChunk` decodes it to: known fields only, in the
 * schema's order, with its defaults.
 */
const copyUsualChunk = (json: Record<string, any>): Chunk => {
  const choices: Array<Chunk["choices"][number]> = []
  for (const choice of json.choices) {
    const delta = choice.delta
    const decodedDelta: { role?: string; content?: string | null; tool_calls?: null } = {}
    if (delta.role !== undefined) decodedDelta.role = delta.role
    if (delta.content !== undefined) decodedDelta.content = delta.content
    if (delta.tool_calls === null) decodedDelta.tool_calls = null
    const finishReason = choice.finish_reason ?? null
    choices.push(
      "logprobs" in choice
        ? { index: choice.index, delta: decodedDelta, logprobs: choice.logprobs, finish_reason: finishReason }
        : { index: choice.index, delta: decodedDelta, finish_reason: finishReason }
    )
  }
  const usage = json.usage
  return {
    id: json.id,
    choices,
    usage: usage === undefined || usage === null ? null : {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: usage.total_tokens
    }
  }
}

const onlyKeys = (object: Record<string, unknown>, known: ReadonlySet<string>): boolean => {
  for (const key in object) {
    if (!known.has(key)) return false
  }
  return true
}

const chunkKeys = new Set(["id", "choices", "usage"])
const choiceKeys = new Set(["index", "delta", "logprobs", "finish_reason"])
const deltaKeys = new Set(["role", "content", "tool_calls"])
const usageKeys = new Set(["prompt_tokens", "completion_tokens", "total_tokens"])

/**
 * The common case without a copy: a parsed chunk with no field the schema does not know is already what
 * the schema decodes it to, once the defaults (`finish_reason`, `usage`) are filled in. Used only after
 * `isUsualChunk` accepted the same value, so every field has its type.
 */
const isExactChunk = (json: Record<string, unknown>): boolean => {
  if (!onlyKeys(json, chunkKeys)) return false
  for (const choice of json.choices as Array<Record<string, unknown>>) {
    if (!onlyKeys(choice, choiceKeys) || !onlyKeys(choice.delta as Record<string, unknown>, deltaKeys)) return false
  }
  const usage = json.usage
  return usage === undefined || usage === null || onlyKeys(usage as Record<string, unknown>, usageKeys)
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
    if (!isExactChunk(json)) return copyUsualChunk(json)
    // the parsed value is ours alone: fill in the defaults and hand it on
    for (const choice of json.choices) {
      if (choice.finish_reason === undefined) choice.finish_reason = null
    }
    if (json.usage === undefined) json.usage = null
    return json as Chunk
  }
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
