/**
 * A chat completion, or the chunks of a streamed one, as `@effect/ai`'s response parts.
 */
import * as AiError from "@effect/ai/AiError"
import type * as Response from "@effect/ai/Response"
import * as Tool from "@effect/ai/Tool"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { ChatCompletion, ChatCompletionChunk, Usage } from "../../ChatSchema.js"

const module = "StudioLanguageModel"

/** The longest piece of raw model output quoted in an error (a whole answer of the chat models fits). */
const maxQuoted = 64 * 1024

const quote = (text: string): string => text.length <= maxQuoted ? text : `${text.slice(0, maxQuoted)}…`

/**
 * A chat `finish_reason` as `@effect/ai`'s: `tool_calls` and `content_filter` are spelled with a dash,
 * no reason is `unknown`, and a reason the SDK does not know yet is `other`.
 */
const finishReason = (reason: string | null): Response.FinishReason => {
  switch (reason) {
    case null:
      return "unknown"
    case "stop":
    case "length":
      return reason
    case "tool_calls":
      return "tool-calls"
    case "content_filter":
      return "content-filter"
    default:
      return "other"
  }
}

const usageOf = (usage: Usage | null): typeof Response.Usage.Encoded => ({
  inputTokens: usage?.prompt_tokens,
  outputTokens: usage?.completion_tokens,
  totalTokens: usage?.total_tokens
})

/**
 * A structured answer that does not decode by its schema, reported with the text the model wrote.
 */
export const objectNotConforming = (text: string, cause: unknown): AiError.MalformedOutput =>
  new AiError.MalformedOutput({
    module,
    method: "generateObject",
    description: `the answer does not conform to the schema; the model wrote: ${quote(text)}`,
    cause
  })

/** Parses the JSON arguments of a tool call, reporting the raw text when they are not JSON. */
const toolParams = (method: string, name: string, text: string): Effect.Effect<unknown, AiError.MalformedOutput> =>
  Effect.try({
    try: () => Tool.unsafeSecureJsonParse(text),
    catch: (cause) =>
      new AiError.MalformedOutput({
        module,
        method,
        description: `the arguments of a call to the tool "${name}" are not JSON: ${quote(text)}`,
        cause
      })
  })

/** The parts a completion becomes. */
type CompletionPart =
  | Response.ResponseMetadataPartEncoded
  | Response.TextPartEncoded
  | Response.ToolCallPartEncoded
  | Response.FinishPartEncoded

/**
 * The parts of a completion: its metadata, the first choice's text and tool calls, and a finish part with
 * the reason and usage. `method` is the `LanguageModel` method whose errors they are.
 */
export const completionParts = (
  completion: ChatCompletion,
  model: string,
  method: string
): Effect.Effect<Array<CompletionPart>, AiError.MalformedOutput> =>
  Effect.gen(function*() {
    const first = completion.choices.find((choice) => choice.index === 0) ?? completion.choices[0]
    if (first === undefined) {
      return yield* new AiError.MalformedOutput({
        module,
        method,
        description: `the completion ${completion.id} has no choices`
      })
    }
    const parts: Array<CompletionPart> = [{ type: "response-metadata", id: completion.id, modelId: model }]
    const content = first.message.content
    if (content !== null && content !== "") parts.push({ type: "text", text: content })
    for (const call of first.message.tool_calls ?? []) {
      parts.push({
        type: "tool-call",
        id: call.id,
        name: call.function.name,
        params: yield* toolParams(method, call.function.name, call.function.arguments)
      })
    }
    parts.push({
      type: "finish",
      reason: finishReason(first.finish_reason),
      usage: usageOf(completion.usage),
      ...(completion.choices.length > 1
        ? {
          metadata: {
            studio: {
              choices: completion.choices.map((choice) => ({
                index: choice.index,
                content: choice.message.content,
                finishReason: choice.finish_reason
              }))
            }
          }
        }
        : {})
    })
    return parts
  })

/**
 * The parts of a completion as a stream gives them, for a completion the service cannot stream (one that
 * may call tools, or has several choices): the same parts, the text as one delta between a text start and
 * end.
 */
export const completionStreamParts = (
  completion: ChatCompletion,
  model: string
): Effect.Effect<Array<Response.StreamPartEncoded>, AiError.MalformedOutput> =>
  Effect.map(
    completionParts(completion, model, "streamText"),
    (parts) =>
      parts.flatMap((part): Array<Response.StreamPartEncoded> =>
        part.type === "text"
          ? [
            { type: "text-start", id: completion.id },
            { type: "text-delta", id: completion.id, delta: part.text },
            { type: "text-end", id: completion.id }
          ]
          : [part]
      )
  )

/**
 * The parts of a streamed completion: its metadata with the first chunk, the text of the first choice as
 * deltas (between a text start and end), then a finish part with the last reason and the usage the final
 * chunk carries.
 */
export const chunkParts = <E, R>(
  chunks: Stream.Stream<ChatCompletionChunk, E, R>,
  model: string
): Stream.Stream<Response.StreamPartEncoded, E, R> =>
  Stream.suspend(() => {
    let id: string | undefined
    let textStarted = false
    let reason: string | null = null
    let usage: Usage | null = null
    const parts = Stream.mapConcat(chunks, (chunk) => {
      const out: Array<Response.StreamPartEncoded> = []
      if (id === undefined) {
        id = chunk.id
        out.push({ type: "response-metadata", id: chunk.id, modelId: model })
      }
      if (chunk.usage !== null) usage = chunk.usage
      for (const choice of chunk.choices) {
        if (choice.index !== 0) continue
        const delta = choice.delta.content
        if (typeof delta === "string" && delta !== "") {
          if (!textStarted) {
            textStarted = true
            out.push({ type: "text-start", id: chunk.id })
          }
          out.push({ type: "text-delta", id: chunk.id, delta })
        }
        if (choice.finish_reason !== null) reason = choice.finish_reason
      }
      return out
    })
    const end = Stream.suspend(() => {
      const out: Array<Response.StreamPartEncoded> = []
      if (textStarted && id !== undefined) out.push({ type: "text-end", id })
      out.push({ type: "finish", reason: finishReason(reason), usage: usageOf(usage) })
      return Stream.fromIterable(out)
    })
    return Stream.concat(parts, end)
  })
