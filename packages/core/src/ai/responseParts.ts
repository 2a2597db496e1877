/**
 * A chat completion, or the chunks of a streamed one, as the encoded response parts of an AI provider's
 * `LanguageModel`: its metadata, the first choice's reasoning, text and tool calls, and a finish part with the reason and
 * the usage (whose shape each AI library gives, so it is a parameter here).
 *
 * @since 1.0.0
 */
import type { ChatCompletionChoice, ChatCompletionChunk, Usage } from "../wire/chat.js"

/** The longest piece of raw model output quoted in an error (a whole answer of the chat models fits). */
const maxQuoted = 64 * 1024

/** Raw model output as an error quotes it: whole up to `maxQuoted` characters, cut with an ellipsis past. */
export const quote = (text: string): string => text.length <= maxQuoted ? text : `${text.slice(0, maxQuoted)}…`

/** Why a completion cannot be read as parts: it has no choice. */
export const noChoices = (completion: { readonly id: string }): string =>
  `the completion ${completion.id} has no choices`

/** Why a tool call cannot be read as a part: its arguments are not JSON. */
export const toolArgumentsNotJson = (name: string, text: string): string =>
  `the arguments of a call to the tool "${name}" are not JSON: ${quote(text)}`

/** Why a response ended, as AI libraries spell it. */
export type FinishReason = "stop" | "length" | "tool-calls" | "content-filter" | "unknown" | "other"

/**
 * A chat `finish_reason` as AI libraries spell it: `tool_calls` and `content_filter` with a dash, no reason
 * is `unknown`, and a reason the SDK does not know yet is `other`.
 */
export const finishReason = (reason: string | null): FinishReason => {
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

/** The response's id and the model that answered. */
export interface ResponseMetadataPart {
  readonly type: "response-metadata"
  readonly id: string
  readonly modelId: string
}

export interface TextPart {
  readonly type: "text"
  readonly text: string
}

/** The model's reasoning (`reasoning_content`), before its answer. */
export interface ReasoningPart {
  readonly type: "reasoning"
  readonly text: string
}

export interface ReasoningStartPart {
  readonly type: "reasoning-start"
  readonly id: string
}

export interface ReasoningDeltaPart {
  readonly type: "reasoning-delta"
  readonly id: string
  readonly delta: string
}

export interface ReasoningEndPart {
  readonly type: "reasoning-end"
  readonly id: string
}

export interface TextStartPart {
  readonly type: "text-start"
  readonly id: string
}

export interface TextDeltaPart {
  readonly type: "text-delta"
  readonly id: string
  readonly delta: string
}

export interface TextEndPart {
  readonly type: "text-end"
  readonly id: string
}

/** A call of a tool, its arguments parsed. */
export interface ToolCallPart {
  readonly type: "tool-call"
  readonly id: string
  readonly name: string
  readonly params: unknown
}

/**
 * One choice in a finish part's metadata (what `finishChoicesOf` reads back); a type literal, as JSON metadata
 * must be.
 */
type ChoiceMetadata = {
  readonly index: number
  readonly content: string | null
  readonly finishReason: string | null
}

/** The end of a response: why it ended and its usage, and every choice when there are several. */
export interface FinishPart<U> {
  readonly type: "finish"
  readonly reason: FinishReason
  readonly usage: U
  readonly metadata?: { readonly studio: { readonly choices: Array<ChoiceMetadata> } }
}

/** The parts a completion becomes. */
export type CompletionPart<U> = ResponseMetadataPart | ReasoningPart | TextPart | ToolCallPart | FinishPart<U>

/** The parts a stream gives. */
export type StreamPart<U> =
  | ResponseMetadataPart
  | ReasoningStartPart
  | ReasoningDeltaPart
  | ReasoningEndPart
  | TextStartPart
  | TextDeltaPart
  | TextEndPart
  | ToolCallPart
  | FinishPart<U>

/** The choice whose parts a completion becomes: index 0, or the first there is. */
export const firstChoice = <C extends { readonly index: number }>(choices: ReadonlyArray<C>): C | undefined =>
  choices.find((choice) => choice.index === 0) ?? choices[0]

/**
 * The parts of a completion whose first choice is `choice`: its metadata, the choice's text and tool calls
 * (`params` are their arguments as parsed, in order), and a finish part with the reason and usage, which
 * holds every choice in its metadata when there are several.
 */
export const completionParts = <U>(
  completion: { readonly id: string; readonly choices: ReadonlyArray<ChatCompletionChoice> },
  choice: ChatCompletionChoice,
  options: { readonly model: string; readonly usage: U; readonly params: ReadonlyArray<unknown> }
): Array<CompletionPart<U>> => {
  const parts: Array<CompletionPart<U>> = [{ type: "response-metadata", id: completion.id, modelId: options.model }]
  const reasoning = choice.message.reasoning_content
  if (typeof reasoning === "string" && reasoning !== "") parts.push({ type: "reasoning", text: reasoning })
  const content = choice.message.content
  if (content !== null && content !== "") parts.push({ type: "text", text: content })
  for (const [i, call] of (choice.message.tool_calls ?? []).entries()) {
    parts.push({ type: "tool-call", id: call.id, name: call.function.name, params: options.params[i] })
  }
  parts.push({
    type: "finish",
    reason: finishReason(choice.finish_reason),
    usage: options.usage,
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
}

/**
 * The parts of a completion as a stream gives them, for a completion the service cannot stream (one that may
 * call tools, or has several choices): the same parts, the reasoning and the text each as one delta between
 * its start and end.
 */
export const completionStreamParts = <U>(parts: ReadonlyArray<CompletionPart<U>>, id: string): Array<StreamPart<U>> =>
  parts.flatMap((part): Array<StreamPart<U>> =>
    part.type === "text"
      ? [
        { type: "text-start", id },
        { type: "text-delta", id, delta: part.text },
        { type: "text-end", id }
      ]
      : part.type === "reasoning"
      ? [
        { type: "reasoning-start", id },
        { type: "reasoning-delta", id, delta: part.text },
        { type: "reasoning-end", id }
      ]
      : [part]
  )

/**
 * The parts of a streamed completion, chunk by chunk: its metadata with the first chunk, the reasoning of
 * the first choice as deltas (between a reasoning start and end, ended when text follows it), its text as
 * deltas (between a text start and end), then at the end a finish part with the last reason
 * and the usage the final chunk carries.
 */
export class ChunkParts<U> {
  private id: string | undefined
  private textStarted = false
  private reasoningOpen = false
  private reason: string | null = null
  private usage: Usage | null = null
  private readonly model: string
  private readonly usageOf: (usage: Usage | null) => U

  /** `usageOf` gives the usage of the finish part (`null` when no chunk carried one). */
  constructor(model: string, usageOf: (usage: Usage | null) => U) {
    this.model = model
    this.usageOf = usageOf
  }

  /** The parts a chunk brings. */
  add(chunk: ChatCompletionChunk): Array<StreamPart<U>> {
    const out: Array<StreamPart<U>> = []
    if (this.id === undefined) {
      this.id = chunk.id
      out.push({ type: "response-metadata", id: chunk.id, modelId: this.model })
    }
    if (chunk.usage !== null) this.usage = chunk.usage
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue
      const thought = choice.delta.reasoning_content
      if (typeof thought === "string" && thought !== "") {
        if (!this.reasoningOpen) {
          this.reasoningOpen = true
          out.push({ type: "reasoning-start", id: chunk.id })
        }
        out.push({ type: "reasoning-delta", id: chunk.id, delta: thought })
      }
      const delta = choice.delta.content
      if (typeof delta === "string" && delta !== "") {
        this.endReasoning(out)
        if (!this.textStarted) {
          this.textStarted = true
          out.push({ type: "text-start", id: chunk.id })
        }
        out.push({ type: "text-delta", id: chunk.id, delta })
      }
      if (choice.finish_reason !== null) this.reason = choice.finish_reason
    }
    return out
  }

  /** The end of the reasoning, when it is open. */
  private endReasoning(out: Array<StreamPart<U>>): void {
    if (this.reasoningOpen && this.id !== undefined) out.push({ type: "reasoning-end", id: this.id })
    this.reasoningOpen = false
  }

  /** The parts that end the stream: the end of its reasoning and text, if any, and the finish part. */
  end(): Array<StreamPart<U>> {
    const out: Array<StreamPart<U>> = []
    this.endReasoning(out)
    if (this.textStarted && this.id !== undefined) out.push({ type: "text-end", id: this.id })
    out.push({ type: "finish", reason: finishReason(this.reason), usage: this.usageOf(this.usage) })
    return out
  }
}
