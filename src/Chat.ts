/**
 * Chat completions: `create` for a whole answer, `stream` for its chunks as they are generated,
 * `accumulate` to add chunks up to the completion they make, and `textDeltas` for the text alone.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import {
  ChatCompletion,
  ChatCompletionChunk,
  type ChatCompletionChunk as Chunk,
  ChatRequest,
  type ToolCall,
  type Usage
} from "./ChatSchema.js"
import { decodeEventsWith } from "./internal/sse.js"
import { validateRequest } from "./internal/validate.js"
import { StudioClient } from "./StudioClient.js"
import { DecodeError, type StudioError } from "./StudioError.js"

const path = "/studio/v1/chat/completions"

/** GenAI semantic-convention attributes of a request. */
const requestAttributes = (request: typeof ChatRequest.Type, streamed: boolean): Record<string, unknown> => {
  const attributes: Record<string, unknown> = {
    "gen_ai.system": "studio",
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": request.model,
    "gen_ai.request.stream": streamed
  }
  if (request.max_tokens !== undefined) attributes["gen_ai.request.max_tokens"] = request.max_tokens
  if (request.temperature !== undefined) attributes["gen_ai.request.temperature"] = request.temperature
  if (request.top_p !== undefined) attributes["gen_ai.request.top_p"] = request.top_p
  if (request.n !== undefined) attributes["gen_ai.request.choice.count"] = request.n
  if (request.stop !== undefined) {
    attributes["gen_ai.request.stop_sequences"] = typeof request.stop === "string" ? [request.stop] : request.stop
  }
  return attributes
}

/** GenAI semantic-convention attributes of a completion. */
const responseAttributes = (completion: ChatCompletion): Record<string, unknown> => ({
  "gen_ai.response.id": completion.id,
  "gen_ai.response.finish_reasons": completion.choices.map((choice) => choice.finish_reason ?? "unknown"),
  "gen_ai.usage.input_tokens": completion.usage.prompt_tokens,
  "gen_ai.usage.output_tokens": completion.usage.completion_tokens
})

const withoutStream = ({ stream: _stream, ...rest }: typeof ChatRequest.Type) => rest

/**
 * Creates a chat completion. The request is checked against every rule of the interface first; a broken
 * rule fails with `ValidationError` and nothing is sent.
 *
 * @since 0.1.0
 * @category operations
 */
export const create = (request: ChatRequest): Effect.Effect<ChatCompletion, StudioError, StudioClient> =>
  Effect.flatMap(
    validateRequest("chat", ChatRequest, request),
    (valid) =>
      Effect.flatMap(StudioClient, (client) =>
        client.json({
          operation: "chat",
          method: "POST",
          path,
          body: withoutStream(valid),
          response: ChatCompletion
        })).pipe(
          Effect.tap((completion) => Effect.annotateCurrentSpan(responseAttributes(completion))),
          Effect.withSpan("studio.chat.create", { kind: "client", attributes: requestAttributes(valid, false) })
        )
  )

const decodeChunk = Schema.decodeUnknownEither(ChatCompletionChunk)

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isOptionalString = (value: unknown) => value === undefined || typeof value === "string"

/**
 * The usual chunk (string and number fields where the schema has them, no tool calls), decoded by hand
 * into exactly what `ChatCompletionChunk` decodes it to: known fields only, in the schema's order, with its
 * defaults. Anything else is left to the schema (`undefined`), which also words the errors.
 */
const decodeUsualChunk = (json: unknown): Chunk | undefined => {
  if (!isObject(json) || typeof json.id !== "string" || !Array.isArray(json.choices)) return undefined
  const choices: Array<Chunk["choices"][number]> = []
  for (const choice of json.choices as Array<unknown>) {
    if (!isObject(choice) || typeof choice.index !== "number" || !isObject(choice.delta)) return undefined
    const delta = choice.delta
    const content = delta.content
    if (!isOptionalString(delta.role) || (content !== undefined && content !== null && typeof content !== "string")) {
      return undefined
    }
    if (delta.tool_calls !== undefined && delta.tool_calls !== null) return undefined
    const finishReason = choice.finish_reason
    if (finishReason !== undefined && finishReason !== null && typeof finishReason !== "string") return undefined
    const decodedDelta: { role?: string; content?: string | null; tool_calls?: null } = {}
    if (delta.role !== undefined) decodedDelta.role = delta.role as string
    if (content !== undefined) decodedDelta.content = content as string | null
    if (delta.tool_calls === null) decodedDelta.tool_calls = null
    choices.push(
      "logprobs" in choice
        ? { index: choice.index, delta: decodedDelta, logprobs: choice.logprobs, finish_reason: finishReason ?? null }
        : { index: choice.index, delta: decodedDelta, finish_reason: finishReason ?? null }
    )
  }
  const usage = json.usage
  if (usage === undefined || usage === null) return { id: json.id, choices, usage: null }
  if (
    !isObject(usage) || typeof usage.prompt_tokens !== "number" || typeof usage.completion_tokens !== "number" ||
    typeof usage.total_tokens !== "number"
  ) return undefined
  return {
    id: json.id,
    choices,
    usage: {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: usage.total_tokens
    }
  }
}

const parseChunk = (data: string): Either.Either<Chunk, DecodeError> => {
  let json: unknown
  try {
    json = JSON.parse(data)
  } catch {
    return Either.left(
      new DecodeError({ operation: "chat.stream", reason: "an event is not JSON", body: data.slice(0, 1024) })
    )
  }
  const usual = decodeUsualChunk(json)
  if (usual !== undefined) return Either.right(usual)
  const result = decodeChunk(json)
  return result._tag === "Right"
    ? Either.right(result.right)
    : Either.left(new DecodeError({ operation: "chat.stream", reason: result.left.message, body: data.slice(0, 1024) }))
}

/**
 * Streams a chat completion as it is generated (sets `stream: true`). The stream ends at the service's
 * `[DONE]`; a body cut short fails with `TransportError`, a malformed event with `DecodeError`.
 *
 * @since 0.1.0
 * @category operations
 */
export const stream = (request: ChatRequest): Stream.Stream<Chunk, StudioError, StudioClient> =>
  Stream.unwrap(
    Effect.map(
      Effect.zip(validateRequest("chat", ChatRequest, { ...request, stream: true }), StudioClient),
      ([valid, client]) =>
        client.stream({ operation: "chat.stream", path, body: valid }).pipe(
          decodeEventsWith("POST", client.baseUrl + path, parseChunk),
          Stream.withSpan("studio.chat.stream", { kind: "client", attributes: requestAttributes(valid, true) })
        )
    )
  )

interface ChoiceState {
  role: string
  content: string | null
  toolCalls: Map<number, { id: string; type: string; name: string; arguments: string }>
  finishReason: string | null
}

const emptyUsage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }

/**
 * Adds chunks up to the completion they make: content concatenated, tool-call arguments merged by index,
 * the last `finish_reason` and `usage` of each choice.
 *
 * @since 0.1.0
 * @category streaming
 */
export const accumulate = <E, R>(self: Stream.Stream<Chunk, E, R>): Effect.Effect<ChatCompletion, E, R> =>
  Effect.suspend(() => {
    let id = ""
    let usage: Usage | null = null
    const choices = new Map<number, ChoiceState>()
    return Stream.runForEach(self, (chunk) =>
      Effect.sync(() => {
        if (id === "") id = chunk.id
        if (chunk.usage !== null) usage = chunk.usage
        for (const choice of chunk.choices) {
          let state = choices.get(choice.index)
          if (state === undefined) {
            state = { role: "assistant", content: null, toolCalls: new Map(), finishReason: null }
            choices.set(choice.index, state)
          }
          const delta = choice.delta
          if (delta.role !== undefined) state.role = delta.role
          if (typeof delta.content === "string") state.content = (state.content ?? "") + delta.content
          for (const call of delta.tool_calls ?? []) {
            const current = state.toolCalls.get(call.index)
            if (current === undefined) {
              state.toolCalls.set(call.index, {
                id: call.id ?? "",
                type: call.type ?? "function",
                name: call.function?.name ?? "",
                arguments: call.function?.arguments ?? ""
              })
            } else {
              if (call.id !== undefined) current.id = call.id
              if (call.function?.name !== undefined) current.name += call.function.name
              if (call.function?.arguments !== undefined) current.arguments += call.function.arguments
            }
          }
          if (choice.finish_reason !== null) state.finishReason = choice.finish_reason
        }
      })).pipe(
        Effect.map((): ChatCompletion => ({
          id,
          choices: [...choices.entries()].sort(([a], [b]) => a - b).map(([index, state]) => ({
            index,
            message: {
              role: state.role,
              content: state.content,
              tool_calls: state.toolCalls.size === 0 ? null : [...state.toolCalls.entries()]
                .sort(([a], [b]) => a - b)
                .map(([, call]): ToolCall => ({
                  id: call.id,
                  type: call.type,
                  function: { name: call.name, arguments: call.arguments }
                }))
            },
            logprobs: null,
            finish_reason: state.finishReason
          })),
          usage: usage ?? emptyUsage
        }))
      )
  })

/**
 * The text of the first choice as it arrives, without empty pieces.
 *
 * @since 0.1.0
 * @category streaming
 */
export const textDeltas = <E, R>(self: Stream.Stream<Chunk, E, R>): Stream.Stream<string, E, R> =>
  Stream.filterMap(self, (chunk) => {
    for (const choice of chunk.choices) {
      if (choice.index === 0) {
        const content = choice.delta.content
        return typeof content === "string" && content !== "" ? Option.some(content) : Option.none()
      }
    }
    return Option.none()
  })
