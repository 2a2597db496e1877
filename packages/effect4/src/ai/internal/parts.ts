/**
 * A chat completion, or the chunks of a streamed one, as `effect/ai`'s response parts.
 */
import * as AiError from "effect/ai/AiError"
import type * as Response from "effect/ai/Response"
import * as Tool from "effect/ai/Tool"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import {
  ChunkParts,
  type CompletionPart,
  completionParts as partsOf,
  completionStreamParts as streamPartsOf,
  firstChoice,
  noChoices,
  toolArgumentsNotJson
} from "studio-effect-core/ai/responseParts"
import type { ChatCompletion, ChatCompletionChunk, Usage } from "../../ChatSchema.js"
import { aiError } from "./aiError.js"

/** The token counts of a completion; the chat models have no cache and no reasoning tokens to report. */
const usageOf = (usage: Usage | null): typeof Response.Usage.Encoded => ({
  inputTokens: usage === null ? {} : { total: usage.prompt_tokens },
  outputTokens: usage === null ? {} : { total: usage.completion_tokens }
})

/** Parses the JSON arguments of a tool call, reporting the raw text when they are not JSON. */
const toolParams = (method: string, name: string, text: string): Effect.Effect<unknown, AiError.AiError> =>
  Effect.try({
    try: () => Tool.unsafeSecureJsonParse(text),
    catch: () => aiError(method, new AiError.InvalidOutputError({ description: toolArgumentsNotJson(name, text) }))
  })

/**
 * The parts of a completion: its metadata, the first choice's text and tool calls, and a finish part with
 * the reason and usage. `method` is the `LanguageModel` method whose errors they are.
 */
export const completionParts = (
  completion: ChatCompletion,
  model: string,
  method: string
): Effect.Effect<Array<CompletionPart<typeof Response.Usage.Encoded>>, AiError.AiError> =>
  Effect.gen(function*() {
    const first = firstChoice(completion.choices)
    if (first === undefined) {
      return yield* aiError(method, new AiError.InvalidResponseError({ description: noChoices(completion) }))
    }
    const params = yield* Effect.forEach(
      first.message.tool_calls ?? [],
      (call) => toolParams(method, call.function.name, call.function.arguments)
    )
    return partsOf(completion, first, { model, usage: usageOf(completion.usage), params })
  })

/**
 * The parts of a completion as a stream gives them, for a completion the service cannot stream (one that
 * may call tools, or has several choices).
 */
export const completionStreamParts = (
  completion: ChatCompletion,
  model: string
): Effect.Effect<Array<Response.StreamPartEncoded>, AiError.AiError> =>
  Effect.map(completionParts(completion, model, "streamText"), (parts) => streamPartsOf(parts, completion.id))

/** The parts of a streamed completion, as `ChunkParts` makes them. */
export const chunkParts = <E, R>(
  chunks: Stream.Stream<ChatCompletionChunk, E, R>,
  model: string
): Stream.Stream<Response.StreamPartEncoded, E, R> =>
  Stream.suspend(() => {
    const parts = new ChunkParts(model, usageOf)
    return Stream.concat(
      Stream.flattenIterable(Stream.map(chunks, (chunk) => parts.add(chunk))),
      Stream.suspend(() => Stream.fromIterable(parts.end()))
    )
  })
