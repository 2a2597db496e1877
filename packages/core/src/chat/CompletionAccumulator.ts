/**
 * Adding a stream's chunks up to the completion they make: content and reasoning concatenated, tool-call
 * pieces merged by index, the last `finish_reason` of each choice and the last `usage`. It counts what it holds (`size`), so
 * that a stream whose content never ends can be stopped at a bound instead of growing to the platform's
 * string limit.
 *
 * @since 0.1.0
 */
import type { ChatCompletion, ChatCompletionChunk, FinishReason, ToolCall, Usage } from "../wire/chat.js"

/** What each new choice or tool call counts for, beside its text: the room its state takes. */
export const entrySize = 64

interface ToolCallState {
  id: string
  type: string
  name: string
  arguments: string
}

interface ChoiceState {
  content: string | null
  reasoning: string | null
  readonly toolCalls: Map<number, ToolCallState>
  finishReason: FinishReason | null
}

const emptyUsage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }

/**
 * The completion of the chunks added so far.
 *
 * @since 0.1.0
 * @category chat
 */
export class CompletionAccumulator {
  private id = ""
  private usage: Usage | null = null
  private readonly choices = new Map<number, ChoiceState>()
  /**
   * What the completion holds, in characters of its text (its id, content, reasoning, tool call ids, types,
   * names and arguments), and `entrySize` for each choice and tool call.
   */
  size = 0

  add(chunk: ChatCompletionChunk): void {
    if (this.id === "") {
      this.id = chunk.id
      this.size += chunk.id.length
    }
    if (chunk.usage !== null) this.usage = chunk.usage
    for (const choice of chunk.choices) {
      let state = this.choices.get(choice.index)
      if (state === undefined) {
        state = { content: null, reasoning: null, toolCalls: new Map(), finishReason: null }
        this.choices.set(choice.index, state)
        this.size += entrySize
      }
      const delta = choice.delta
      if (typeof delta.content === "string") {
        state.content = (state.content ?? "") + delta.content
        this.size += delta.content.length
      }
      if (typeof delta.reasoning_content === "string") {
        state.reasoning = (state.reasoning ?? "") + delta.reasoning_content
        this.size += delta.reasoning_content.length
      }
      for (const call of delta.tool_calls ?? []) {
        const current = state.toolCalls.get(call.index)
        const name = call.function?.name
        const args = call.function?.arguments
        if (current === undefined) {
          const added = { id: call.id ?? "", type: call.type ?? "function", name: name ?? "", arguments: args ?? "" }
          state.toolCalls.set(call.index, added)
          this.size += entrySize + added.id.length + added.type.length + added.name.length + added.arguments.length
        } else {
          if (call.id !== undefined) {
            this.size += call.id.length - current.id.length
            current.id = call.id
          }
          if (name !== undefined) {
            current.name += name
            this.size += name.length
          }
          if (args !== undefined) {
            current.arguments += args
            this.size += args.length
          }
        }
      }
      if (choice.finish_reason !== null) state.finishReason = choice.finish_reason
    }
  }

  /** The completion: choices and their tool calls in index order, `usage` zero when none came. */
  completion(): ChatCompletion {
    return {
      id: this.id,
      choices: [...this.choices.entries()].sort(([a], [b]) => a - b).map(([index, state]) => ({
        index,
        message: {
          role: "assistant",
          content: state.content,
          tool_calls: state.toolCalls.size === 0 ? null : [...state.toolCalls.entries()]
            .sort(([a], [b]) => a - b)
            .map(([, call]): ToolCall => ({
              id: call.id,
              type: call.type,
              function: { name: call.name, arguments: call.arguments }
            })),
          ...(state.reasoning === null ? {} : { reasoning_content: state.reasoning })
        },
        logprobs: null,
        finish_reason: state.finishReason
      })),
      usage: this.usage ?? emptyUsage
    }
  }
}
