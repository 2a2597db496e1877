/**
 * Chat completions of the reference service: from the model's reply for each choice, applies `stop` and
 * `max_tokens`, counts tokens, and builds the completion or the chunks of its stream.
 */
import * as CodePoints from "../text/codePoints.js"
import type { ChatCompletion, ChatCompletionChunkChoice, ChatDelta, Usage } from "../wire/chat.js"
import { countTokens, type ModelRequest, type Reply, tokenize } from "./builtInModel.js"
import type { Ids } from "./ids.js"

/** A generated choice, after `stop` and `max_tokens`. */
export interface GeneratedChoice {
  readonly tokens: ReadonlyArray<string>
  /** The tokens of the model's reasoning, none when it shows none. */
  readonly reasoning: ReadonlyArray<string>
  readonly toolCalls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }>
  readonly finishReason: "stop" | "length" | "tool_calls"
  readonly completionTokens: number
}

/** A generated answer to a chat request. */
export interface Generated {
  readonly id: string
  readonly choices: ReadonlyArray<GeneratedChoice>
  readonly usage: Usage
}

/** Tokens of the prompt: each message's content plus a few for its framing, tools and documents. */
export const promptTokens = (request: ModelRequest): number => {
  let total = 0
  for (const message of request.messages) {
    total += countTokens(message.content ?? "") + 3
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) total += countTokens(JSON.stringify(call))
    }
  }
  for (const tool of request.tools ?? []) total += countTokens(JSON.stringify(tool))
  for (const document of request.documents ?? []) {
    total += countTokens(document.content) + 2
    for (const [key, value] of Object.entries(document.metadata ?? {})) total += countTokens(`${key}: ${value}`)
  }
  return total
}

/** The text before the earliest stop sequence; a sequence only matches whole code points. */
export const cutAtStop = (text: string, stop: ModelRequest["stop"]): string => {
  const sequences = stop === undefined ? [] : typeof stop === "string" ? [stop] : stop
  let end = text.length
  for (const sequence of sequences) {
    if (sequence === "") continue
    const at = CodePoints.indexOf(text, sequence)
    if (at !== -1 && at < end) end = at
  }
  return text.slice(0, end)
}

const argumentsText = (value: unknown): string => typeof value === "string" ? value : JSON.stringify(value ?? {})

/** How many choices a request asks for: the model is run once for each. */
export const choiceCount = (request: ModelRequest): number => request.n ?? 1

/** A choice of the model's reply: its tool calls, or its text cut at `stop` and `max_tokens`. */
const choiceOf = (request: ModelRequest, reply: Reply, ids: Ids): GeneratedChoice => {
  const content = typeof reply === "string" ? reply : reply.content ?? ""
  const calls = typeof reply === "string" ? [] : reply.toolCalls ?? []
  // reasoning is counted as completion tokens, as the service counts it, and is never cut by `stop`
  const reasoning = typeof reply === "string" ? [] : tokenize(reply.reasoning ?? "")
  if (calls.length > 0) {
    const toolCalls = calls.map((call) => ({
      id: ids.toolCall(),
      name: call.name,
      arguments: argumentsText(call.arguments)
    }))
    const completionTokens = toolCalls.reduce(
      (sum, call) => sum + countTokens(call.name) + countTokens(call.arguments),
      countTokens(content) + reasoning.length
    )
    return { tokens: tokenize(content), reasoning, toolCalls, finishReason: "tool_calls", completionTokens }
  }
  // `max_tokens` bounds the reasoning and the content together, the reasoning first
  const tokens = tokenize(cutAtStop(content, request.stop))
  const max = request.max_tokens ?? Infinity
  const thoughts = reasoning.length > max ? reasoning.slice(0, max) : reasoning
  const room = max - thoughts.length
  const kept = tokens.length > room ? tokens.slice(0, room) : tokens
  return {
    tokens: kept,
    reasoning: thoughts,
    toolCalls: [],
    finishReason: thoughts.length < reasoning.length || kept.length < tokens.length ? "length" : "stop",
    completionTokens: kept.length + thoughts.length
  }
}

/** The answer to a request from the model's reply for each of its `choiceCount` choices, in order. */
export const generate = (request: ModelRequest, replies: ReadonlyArray<Reply>, ids: Ids): Generated => {
  const id = ids.chat()
  const choices = replies.map((reply) => choiceOf(request, reply, ids))
  const prompt = promptTokens(request)
  const completion = choices.reduce((sum, choice) => sum + choice.completionTokens, 0)
  return {
    id,
    choices,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
  }
}

/** The completion object of a generated answer, as the service sends it. */
export const completion = (generated: Generated): ChatCompletion => ({
  id: generated.id,
  choices: generated.choices.map((choice, index) => ({
    index,
    message: {
      role: "assistant",
      content: choice.toolCalls.length > 0 && choice.tokens.length === 0 ? null : choice.tokens.join(""),
      tool_calls: choice.toolCalls.length === 0 ? null : choice.toolCalls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments }
      })),
      ...(choice.reasoning.length === 0 ? {} : { reasoning_content: choice.reasoning.join("") })
    },
    logprobs: null,
    finish_reason: choice.finishReason
  })),
  usage: generated.usage
})

/** A chunk of a stream as the service sends it: only the last one carries `usage`. */
export interface SentChunk {
  readonly id: string
  readonly choices: ReadonlyArray<ChatCompletionChunkChoice>
  readonly usage?: Usage | undefined
}

/**
 * The chunks of a streamed answer (one choice): the role first, then one chunk per token of its reasoning,
 * then one per token of its content (or per piece of a tool call), and last an empty content delta with `finish_reason` and the only `usage`. Each iteration
 * builds them afresh, one at a time.
 */
export const chunksOf = (generated: Generated): Iterable<SentChunk> => ({
  *[Symbol.iterator]() {
    const id = generated.id
    const choice = generated.choices[0]!
    const chunk = (delta: ChatDelta, finishReason: string | null = null): SentChunk => ({
      id,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }]
    })
    yield chunk({ role: "assistant" })
    for (const token of choice.reasoning) yield chunk({ reasoning_content: token })
    for (const token of choice.tokens) yield chunk({ content: token })
    for (const [index, call] of choice.toolCalls.entries()) {
      yield chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name } }] })
      for (const piece of CodePoints.pieces(call.arguments, 16)) {
        yield chunk({ tool_calls: [{ index, function: { arguments: piece } }] })
      }
    }
    yield { ...chunk({ content: "" }, choice.finishReason), usage: generated.usage }
  }
})
