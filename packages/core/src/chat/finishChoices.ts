/**
 * The choices of a completion that an AI provider's finish part carries in its metadata (`studio.choices`)
 * when `n` is above 1, read back from that JSON.
 *
 * @since 1.0.0
 */

/** One choice of a completion: its index, its text, and why it ended. */
export interface FinishChoice {
  readonly index: number
  readonly content: string | null
  readonly finishReason: string | null
}

const isRecord = (value: unknown): value is { readonly [key: string]: unknown } =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isChoice = (value: unknown): value is FinishChoice =>
  isRecord(value) && typeof value["index"] === "number" &&
  (value["content"] === null || typeof value["content"] === "string") &&
  (value["finishReason"] === null || typeof value["finishReason"] === "string")

/** The choices in a finish part's metadata (`{ studio: { choices } }`); none when it holds none. */
export const finishChoicesOf = (metadata: unknown): ReadonlyArray<FinishChoice> => {
  const studio = isRecord(metadata) ? metadata["studio"] : undefined
  const choices = isRecord(studio) ? studio["choices"] : undefined
  return Array.isArray(choices) ? choices.filter(isChoice) : []
}
