/**
 * The parts of the AI SDK's stream: chunk by chunk for a streamed completion (the first choice's reasoning
 * and text as deltas, each between its start and end; the response's metadata with the first chunk; a finish
 * part with the last reason and the usage of the final chunk), and all at once for a completion the service
 * could not stream (one with tools), its tool calls each as tool input parts then a `tool-call`.
 */
import type { LanguageModelV4Content, LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { firstChoice } from "studio-effect-core/ai/responseParts"
import type { ChatCompletion, ChatCompletionChunk, Usage } from "studio-effect-core/wire/chat"
import { finishReasonOf, usageOf } from "./answer.js"

/** The content of a completion's first choice: its reasoning, text and tool calls. */
export const completionContent = (completion: ChatCompletion): Array<LanguageModelV4Content> => {
  const message = firstChoice(completion.choices)!.message
  const content: Array<LanguageModelV4Content> = []
  const reasoning = message.reasoning_content
  if (typeof reasoning === "string" && reasoning !== "") content.push({ type: "reasoning", text: reasoning })
  if (message.content !== null && message.content !== "") content.push({ type: "text", text: message.content })
  for (const call of message.tool_calls ?? []) {
    content.push({
      type: "tool-call",
      toolCallId: call.id,
      toolName: call.function.name,
      input: call.function.arguments
    })
  }
  return content
}

/** The parts of a completion given at once, as a stream gives them. */
export const completionStreamParts = (
  completion: ChatCompletion,
  modelId: string
): Array<LanguageModelV4StreamPart> => {
  const parts: Array<LanguageModelV4StreamPart> = [{ type: "response-metadata", id: completion.id, modelId }]
  for (const part of completionContent(completion)) {
    switch (part.type) {
      case "reasoning": {
        const id = `${completion.id}-reasoning`
        parts.push(
          { type: "reasoning-start", id },
          { type: "reasoning-delta", id, delta: part.text },
          { type: "reasoning-end", id }
        )
        break
      }
      case "text": {
        const id = completion.id
        parts.push({ type: "text-start", id }, { type: "text-delta", id, delta: part.text }, { type: "text-end", id })
        break
      }
      case "tool-call": {
        const id = part.toolCallId
        parts.push(
          { type: "tool-input-start", id, toolName: part.toolName },
          { type: "tool-input-delta", id, delta: part.input },
          { type: "tool-input-end", id },
          part
        )
        break
      }
    }
  }
  parts.push({
    type: "finish",
    finishReason: finishReasonOf(firstChoice(completion.choices)!.finish_reason),
    usage: usageOf(completion.usage)
  })
  return parts
}

/** The parts of a streamed completion, chunk by chunk. */
export class ChunkParts {
  private id: string | undefined
  private open: "text" | "reasoning" | undefined
  /** How many reasoning or text blocks were opened: each gets an id of its own. */
  private blocks = 0
  private blockId = ""
  private reason: string | null = null
  private usage: Usage | null = null

  constructor(private readonly modelId: string) {}

  private switchTo(kind: "text" | "reasoning", out: Array<LanguageModelV4StreamPart>): void {
    if (this.open === kind) return
    this.close(out)
    this.open = kind
    this.blockId = `${this.id}-${this.blocks++}`
    out.push({ type: kind === "text" ? "text-start" : "reasoning-start", id: this.blockId })
  }

  private close(out: Array<LanguageModelV4StreamPart>): void {
    if (this.open === undefined) return
    out.push({ type: this.open === "text" ? "text-end" : "reasoning-end", id: this.blockId })
    this.open = undefined
  }

  /** The parts a chunk brings. */
  add(chunk: ChatCompletionChunk): Array<LanguageModelV4StreamPart> {
    const out: Array<LanguageModelV4StreamPart> = []
    if (this.id === undefined) {
      this.id = chunk.id
      out.push({ type: "response-metadata", id: chunk.id, modelId: this.modelId })
    }
    if (chunk.usage !== null && chunk.usage !== undefined) this.usage = chunk.usage
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue
      const reasoning = choice.delta["reasoning_content"]
      if (typeof reasoning === "string" && reasoning !== "") {
        this.switchTo("reasoning", out)
        out.push({ type: "reasoning-delta", id: this.blockId, delta: reasoning })
      }
      const text = choice.delta.content
      if (typeof text === "string" && text !== "") {
        this.switchTo("text", out)
        out.push({ type: "text-delta", id: this.blockId, delta: text })
      }
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) this.reason = choice.finish_reason
    }
    return out
  }

  /** The parts that end a stream read to `[DONE]`: the end of its open block, and the finish part. */
  end(): Array<LanguageModelV4StreamPart> {
    const out: Array<LanguageModelV4StreamPart> = []
    this.close(out)
    out.push({ type: "finish", finishReason: finishReasonOf(this.reason), usage: usageOf(this.usage) })
    return out
  }

  /** The parts that end a stream cut by an error: the end of its open block, and a finish of reason `error`. */
  failed(): Array<LanguageModelV4StreamPart> {
    const out: Array<LanguageModelV4StreamPart> = []
    this.close(out)
    out.push({ type: "finish", finishReason: { unified: "error", raw: undefined }, usage: usageOf(this.usage) })
    return out
  }
}
