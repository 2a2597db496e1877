/**
 * Decoding a chat completion (the answer of `Chat.create`). The usual completion (the fields the schema
 * knows, with their types) is checked by hand and completed in place with the schema's defaults, several
 * times faster than the schema on every request; every other field stays as the service sent it, as the
 * schema keeps it. Any other value goes to the `ChatCompletion` schema, which stays the one definition of
 * a completion and words the errors: a property test holds the two to the same results.
 */
import * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { ChatCompletion } from "../../ChatSchema.js"

const decodeWithSchema = Schema.decodeUnknownEither(ChatCompletion)

const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isAbsentOrNull = (value: unknown) => value === undefined || value === null

const isOptionalString = (value: unknown) => isAbsentOrNull(value) || typeof value === "string"

const isOptionalObject = (value: unknown) => isAbsentOrNull(value) || isObject(value)

const isUsualToolCall = (call: unknown): boolean =>
  isObject(call) && typeof call.id === "string" && (call.type === undefined || typeof call.type === "string") &&
  isObject(call.function) && typeof call.function.name === "string" && typeof call.function.arguments === "string"

const isUsualChoice = (choice: unknown): boolean => {
  if (!isObject(choice) || typeof choice.index !== "number" || !isObject(choice.message)) return false
  const { content, reasoning_content, role, tool_calls } = choice.message
  if (role !== undefined && role !== "assistant") return false
  if (!isOptionalString(content) || !isOptionalString(reasoning_content)) return false
  if (!isAbsentOrNull(tool_calls) && !(Array.isArray(tool_calls) && tool_calls.every(isUsualToolCall))) return false
  // log probabilities are rare: a choice with them goes to the schema
  if (!isAbsentOrNull(choice.logprobs)) return false
  return isAbsentOrNull(choice.finish_reason) || typeof choice.finish_reason === "string"
}

/** Whether a parsed answer is a usual completion: every field the schema knows, with its type. */
const isUsualCompletion = (json: unknown): json is Record<string, any> =>
  isObject(json) && typeof json.id === "string" && Array.isArray(json.choices) && json.choices.every(isUsualChoice) &&
  isOptionalObject(json.meta) &&
  isObject(json.usage) && typeof json.usage.prompt_tokens === "number" &&
  typeof json.usage.completion_tokens === "number" && typeof json.usage.total_tokens === "number"

/**
 * A usual completion, which is ours alone (just parsed), given the schema's defaults where it leaves a
 * field out: what the schema decodes it to, every field it does not name kept.
 */
const completeUsualCompletion = (json: Record<string, any>): ChatCompletion => {
  for (const choice of json.choices) {
    const message = choice.message
    if (message.role === undefined) message.role = "assistant"
    if (message.content === undefined) message.content = null
    if (message.tool_calls === undefined) message.tool_calls = null
    else if (message.tool_calls !== null) {
      for (const call of message.tool_calls) {
        if (call.type === undefined) call.type = "function"
      }
    }
    if (choice.logprobs === undefined) choice.logprobs = null
    if (choice.finish_reason === undefined) choice.finish_reason = null
  }
  return json as ChatCompletion
}

/** The completion a parsed answer is, as the `ChatCompletion` schema decodes it. */
export const decodeCompletion = (json: unknown): Either.Either<ChatCompletion, ParseResult.ParseIssue> =>
  isUsualCompletion(json)
    ? Either.right(completeUsualCompletion(json))
    : Either.mapLeft(decodeWithSchema(json), (error) => error.issue)
