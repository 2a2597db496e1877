/**
 * The text a streamed chunk adds to its first choice: of its content, or of the model's reasoning.
 *
 * @since 1.1.0
 */
import type { ChatCompletionChunk } from "../wire/chat.js"

/**
 * The fields of a delta that carry text.
 *
 * @since 1.1.0
 * @category chat
 */
export type TextField = "content" | "reasoning_content"

/**
 * The text `chunk` adds to `field` of its first choice (index 0), or `undefined` when it adds none (an empty
 * piece, `null`, another choice, or no such field).
 *
 * @since 1.1.0
 * @category chat
 */
export const firstChoiceText = (chunk: ChatCompletionChunk, field: TextField): string | undefined => {
  for (const choice of chunk.choices) {
    if (choice.index === 0) {
      const text = choice.delta[field]
      return typeof text === "string" && text !== "" ? text : undefined
    }
  }
  return undefined
}
