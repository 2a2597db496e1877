/**
 * What `studio-effect chat` says: its options' descriptions, the model it asks by default, and why it has no
 * prompt to send.
 *
 * @since 0.1.0
 */

/**
 * The descriptions of the `chat` command and of its options and argument.
 *
 * @since 0.1.0
 * @category constants
 */
export const chatDescriptions = {
  command: "Ask a chat model and stream its answer to the terminal",
  prompt: "What to ask; read from stdin when not given",
  model: "The chat model: fpmodel-mini or fpmodel-large",
  system: "A system message sent before the prompt",
  temperature: "Sampling temperature, from 0 to 2",
  maxTokens: "The longest answer, in tokens",
  json: "Print the whole completion as JSON instead of streaming its text"
} as const

/**
 * The model asked when `--model` is not given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultChatModel = "fpmodel-mini"

/**
 * The largest prompt read from stdin.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxStdinBytes = 1024 * 1024

/**
 * Why there is no prompt to send.
 *
 * @since 0.1.0
 * @category formatting
 */
export const promptRefusals = {
  /** No prompt argument, and stdin is a terminal. */
  none: "No prompt: give one (studio-effect chat \"Hello\") or pipe it on stdin (echo Hello | studio-effect chat)",
  /** The prompt on stdin is larger than `maxStdinBytes`. */
  tooLarge: `The prompt on stdin is over ${maxStdinBytes} bytes: send a shorter one`,
  /** The prompt is blank. */
  empty: "The prompt is empty: say something",
  /** Stdin could not be read. */
  unreadable: (detail: string): string => `Could not read the prompt from stdin: ${detail}`
} as const
