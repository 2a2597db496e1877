/**
 * A completion or a chunk of the service as the AI SDK reads it: the checks that an answer has the shape the
 * interface gives (what is read of it), its usage, and its finish reason in the SDK's words.
 */
import type { LanguageModelV4FinishReason, LanguageModelV4Usage } from "@ai-sdk/provider"
import { finishReason } from "studio-effect-core/ai/responseParts"
import type { ChatCompletion, ChatCompletionChunk, Usage } from "studio-effect-core/wire/chat"

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isOptionalText = (value: unknown): boolean => value === undefined || value === null || typeof value === "string"

const isUsage = (value: unknown): value is Usage =>
  isRecord(value) && typeof value.prompt_tokens === "number" && typeof value.completion_tokens === "number"

const isToolCall = (value: unknown): boolean =>
  isRecord(value) && typeof value.id === "string" && isRecord(value.function) &&
  typeof value.function.name === "string" && typeof value.function.arguments === "string"

/** Why a completion does not have the interface's shape, or `undefined` when it does. */
export const completionProblem = (value: unknown): string | undefined => {
  if (!isRecord(value) || typeof value.id !== "string" || !Array.isArray(value.choices)) {
    return "a completion has an id and a list of choices"
  }
  if (value.choices.length === 0) return `the completion ${value.id} has no choices`
  for (const choice of value.choices) {
    if (!isRecord(choice) || typeof choice.index !== "number" || !isRecord(choice.message)) {
      return "each choice has an index and a message"
    }
    const { content, reasoning_content, tool_calls } = choice.message
    if (!isOptionalText(content) || !isOptionalText(reasoning_content)) return "a message's content is text"
    if (
      !(tool_calls === undefined || tool_calls === null || (Array.isArray(tool_calls) && tool_calls.every(isToolCall)))
    ) {
      return "a tool call has an id and a function with a name and arguments"
    }
    if (!isOptionalText(choice.finish_reason)) return "a finish reason is text"
  }
  return isUsage(value.usage) ? undefined : "a completion has its usage (prompt_tokens, completion_tokens)"
}

/** Why a chunk does not have the interface's shape, or `undefined` when it does. */
export const chunkProblem = (value: unknown): string | undefined => {
  if (!isRecord(value) || typeof value.id !== "string" || !Array.isArray(value.choices)) {
    return "a chunk has an id and a list of choices"
  }
  for (const choice of value.choices) {
    if (!isRecord(choice) || typeof choice.index !== "number" || !isRecord(choice.delta)) {
      return "each choice of a chunk has an index and a delta"
    }
    if (!isOptionalText(choice.delta.content) || !isOptionalText(choice.delta.reasoning_content)) {
      return "a delta's content is text"
    }
    if (!isOptionalText(choice.finish_reason)) return "a finish reason is text"
  }
  return value.usage === undefined || value.usage === null || isUsage(value.usage)
    ? undefined
    : "a chunk's usage has prompt_tokens and completion_tokens"
}

export type { ChatCompletion, ChatCompletionChunk }

/** The usage of an answer in the SDK's shape; unknown counts when the answer gave none. */
export const usageOf = (usage: Usage | null | undefined): LanguageModelV4Usage => ({
  inputTokens: {
    total: usage?.prompt_tokens,
    noCache: usage?.prompt_tokens,
    cacheRead: undefined,
    cacheWrite: undefined
  },
  outputTokens: { total: usage?.completion_tokens, text: usage?.completion_tokens, reasoning: undefined },
  ...(usage === null || usage === undefined ? {} : { raw: { ...usage } as LanguageModelV4Usage["raw"] & object })
})

/** A chat finish reason as the SDK's: the core's spelling, and no reason at all as `other`. */
export const finishReasonOf = (raw: string | null | undefined): LanguageModelV4FinishReason => {
  const unified = finishReason(raw ?? null)
  return { unified: unified === "unknown" ? "other" : unified, raw: raw ?? undefined }
}
