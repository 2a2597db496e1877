/**
 * The fast path of a streamed chunk's decoding. The usual chunk (string and number fields, no tool calls,
 * no log probabilities) is checked by hand and completed in place with the schema's defaults, several times
 * faster than a schema on the stream's hot path; every other field stays as the service sent it, as the
 * schema keeps it. Any other value is left to each line's `ChatCompletionChunk` schema, which stays the one
 * definition of a chunk: a property test holds the two to the same results.
 *
 * The hidden classes of the chunks are kept between streams (see `engine/hiddenClasses.ts`): a blank copy of
 * the first chunk of each kind, the opening one (with its role), the closing one (with its usage) and the
 * others, made once per process as the chunk itself is, by `JSON.parse` and then completed; only of an
 * event of at most 4 KiB.
 *
 * @since 1.1.0
 */
import { blankCopy, keepHiddenClass } from "../engine/hiddenClasses.js"
import type { ChatCompletionChunk } from "../wire/chat.js"

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

/** Fills in the schema's defaults, in place. */
const complete = (json: Record<string, any>): ChatCompletionChunk => {
  for (const choice of json.choices) {
    if (choice.finish_reason === undefined) choice.finish_reason = null
  }
  if (json.usage === undefined) json.usage = null
  return json as ChatCompletionChunk
}

/** The largest event whose chunk is copied: what is kept stays a few KiB whatever a service sends. */
const maxCopiedEvent = 4096

let openingKept = false
let closingKept = false
let contentKept = false

/** Keeps a completed blank copy of `json` (a usual chunk, not completed yet) when none of its kind is kept. */
const keepClasses = (json: Record<string, any>): void => {
  if (json.usage != null) {
    if (closingKept) return
    closingKept = true
  } else if (json.choices[0]?.delta.role != null) {
    if (openingKept) return
    openingKept = true
  } else {
    if (contentKept) return
    contentKept = true
  }
  keepHiddenClass(complete(blankCopy(json)))
}

/**
 * The chunk `json` (an event's data parsed, the caller's alone; `eventLength`, that data's length) is,
 * completed in place, when it is a usual one; `undefined` for any other value, which the caller decodes with
 * its schema.
 *
 * @since 1.1.0
 * @category chat
 */
export const usualChunk = (json: unknown, eventLength: number): ChatCompletionChunk | undefined => {
  if (!isUsualChunk(json)) return undefined
  if (eventLength <= maxCopiedEvent) keepClasses(json)
  return complete(json)
}
