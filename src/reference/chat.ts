/**
 * Chat completions of the reference service: runs the model once per choice, applies `stop` and
 * `max_tokens`, counts tokens, and builds the completion or the chunks of its stream.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as CodePoints from "../internal/codePoints.js"
import type { Ids } from "./ids.js"
import { countTokens, type Model, type ModelRequest, runModel, tokenize } from "./model.js"

/** A generated choice, after `stop` and `max_tokens`. */
export interface GeneratedChoice {
  readonly tokens: ReadonlyArray<string>
  readonly toolCalls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }>
  readonly finishReason: "stop" | "length" | "tool_calls"
  readonly completionTokens: number
}

/** A generated answer to a chat request. */
export interface Generated {
  readonly id: string
  readonly choices: ReadonlyArray<GeneratedChoice>
  readonly usage: {
    readonly prompt_tokens: number
    readonly completion_tokens: number
    readonly total_tokens: number
  }
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

/** Runs the model for every choice of a request. */
export const generate = (
  model: Model,
  request: ModelRequest,
  options: { readonly seed: number; readonly ids: Ids }
): Effect.Effect<Generated> =>
  Effect.gen(function*() {
    const id = options.ids.chat()
    const n = request.n ?? 1
    const choices: Array<GeneratedChoice> = []
    for (let index = 0; index < n; index++) {
      const reply = yield* runModel(model, request, { index, seed: options.seed, purpose: "chat" })
      const content = typeof reply === "string" ? reply : reply.content ?? ""
      const calls = typeof reply === "string" ? [] : reply.toolCalls ?? []
      if (calls.length > 0) {
        const toolCalls = calls.map((call) => ({
          id: options.ids.toolCall(),
          name: call.name,
          arguments: argumentsText(call.arguments)
        }))
        const completionTokens = toolCalls.reduce(
          (sum, call) => sum + countTokens(call.name) + countTokens(call.arguments),
          countTokens(content)
        )
        choices.push({ tokens: tokenize(content), toolCalls, finishReason: "tool_calls", completionTokens })
        continue
      }
      const tokens = tokenize(cutAtStop(content, request.stop))
      const max = request.max_tokens
      const truncated = max !== undefined && tokens.length > max
      const kept = truncated ? tokens.slice(0, max) : tokens
      choices.push({
        tokens: kept,
        toolCalls: [],
        finishReason: truncated ? "length" : "stop",
        completionTokens: kept.length
      })
    }
    const prompt = promptTokens(request)
    const completion = choices.reduce((sum, choice) => sum + choice.completionTokens, 0)
    return {
      id,
      choices,
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
    }
  })

/** The completion object of a generated answer, as the service sends it. */
export const completion = (generated: Generated) => ({
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
      }))
    },
    logprobs: null,
    finish_reason: choice.finishReason
  })),
  usage: generated.usage
})

/**
 * The chunks of a streamed answer (one choice): the role first, then one chunk per token (or per piece of
 * a tool call), and last an empty content delta with `finish_reason` and the only `usage`.
 */
export const chunks = (generated: Generated): Stream.Stream<unknown> => {
  const id = generated.id
  const choice = generated.choices[0]!
  const chunk = (delta: unknown, finishReason: string | null = null) => ({
    id,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }]
  })
  const first = Stream.succeed(chunk({ role: "assistant" }))
  const content = Stream.fromIterable(choice.tokens).pipe(Stream.map((token) => chunk({ content: token })))
  const calls = Stream.fromIterable(choice.toolCalls.flatMap((call, index) => [
    chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name } }] }),
    ...CodePoints.pieces(call.arguments, 16).map((piece) =>
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] })
    )
  ]))
  const last = Stream.succeed({ ...chunk({ content: "" }, choice.finishReason), usage: generated.usage })
  return first.pipe(Stream.concat(content), Stream.concat(calls), Stream.concat(last))
}
