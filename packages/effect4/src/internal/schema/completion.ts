/**
 * Decoding a chat completion (the answer of `Chat.create`). The usual completion (the fields the schema
 * knows, with their types) is checked and copied by hand, several times faster than the schema on every
 * request; any other value goes to the `ChatCompletion` schema, which stays the one definition of a
 * completion and words the errors: a property test holds the two to the same results.
 */
import * as Result from "effect/Result"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import { ChatCompletion } from "../../ChatSchema.js"

const decodeWithSchema = SchemaParser.decodeUnknownResult(ChatCompletion)

const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isAbsentOrNull = (value: unknown) => value === undefined || value === null

const isUsualToolCall = (call: unknown): boolean =>
  isObject(call) && typeof call.id === "string" && (call.type === undefined || typeof call.type === "string") &&
  isObject(call.function) && typeof call.function.name === "string" && typeof call.function.arguments === "string"

const isUsualChoice = (choice: unknown): boolean => {
  if (!isObject(choice) || typeof choice.index !== "number" || !isObject(choice.message)) return false
  const { content, role, tool_calls } = choice.message
  if (role !== undefined && role !== "assistant") return false
  if (!isAbsentOrNull(content) && typeof content !== "string") return false
  if (!isAbsentOrNull(tool_calls) && !(Array.isArray(tool_calls) && tool_calls.every(isUsualToolCall))) return false
  return isAbsentOrNull(choice.finish_reason) || typeof choice.finish_reason === "string"
}

/** Whether a parsed answer is a usual completion: every field the schema knows, with its type. */
const isUsualCompletion = (json: unknown): json is Record<string, any> =>
  isObject(json) && typeof json.id === "string" && Array.isArray(json.choices) && json.choices.every(isUsualChoice) &&
  isObject(json.usage) && typeof json.usage.prompt_tokens === "number" &&
  typeof json.usage.completion_tokens === "number" && typeof json.usage.total_tokens === "number"

/** A usual completion copied into exactly what the schema decodes it to: its fields, in its order, with its defaults. */
const copyUsualCompletion = (json: Record<string, any>): ChatCompletion => ({
  id: json.id,
  choices: json.choices.map((choice: Record<string, any>) => {
    const message = choice.message
    const toolCalls = message.tool_calls
    return {
      index: choice.index,
      message: {
        role: "assistant",
        content: message.content ?? null,
        tool_calls: isAbsentOrNull(toolCalls) ? null : toolCalls.map((call: Record<string, any>) => ({
          id: call.id,
          type: call.type ?? "function",
          function: { name: call.function.name, arguments: call.function.arguments }
        }))
      },
      logprobs: choice.logprobs ?? null,
      finish_reason: choice.finish_reason ?? null
    }
  }),
  usage: {
    prompt_tokens: json.usage.prompt_tokens,
    completion_tokens: json.usage.completion_tokens,
    total_tokens: json.usage.total_tokens
  }
})

/** The completion a parsed answer is, as the `ChatCompletion` schema decodes it. */
export const decodeCompletion = (json: unknown): Result.Result<ChatCompletion, SchemaIssue.Issue> =>
  isUsualCompletion(json) ? Result.succeed(copyUsualCompletion(json)) : decodeWithSchema(json)
