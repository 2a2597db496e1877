/**
 * What `studio-effect chat` says: its options' descriptions, the model it asks by default, and why it has no
 * prompt to send.
 *
 * @since 0.1.0
 */
import type { Example } from "./help.js"
import { errorCode, type KeyFileHandle } from "./serve.js"

/**
 * The descriptions of the `chat` command and of its options and argument.
 *
 * @since 0.1.0
 * @category constants
 */
export const chatDescriptions = {
  command: "Ask a chat model and stream its answer to the terminal",
  prompt: "What to ask; read from stdin when not given",
  model: "The chat model: fpmodel-mini or fpmodel-large (default: fpmodel-mini)",
  system: "A system message sent before the prompt",
  temperature: "Sampling temperature, from 0 to 2 (the service's default: 0.4)",
  topP: "Sample from the most likely tokens whose probabilities add up to p, from 0 to 1 (the service's default: 1)",
  stop: "Stop the answer before this text; repeat for several",
  maxTokens: "The longest answer, in tokens",
  document: "A local text file the model answers from (sent as a document, its name as id); repeat for several",
  jsonMode: "Ask for an answer that is a JSON object (the request's response_format json_object)",
  json: "Print the whole completion as JSON instead of streaming its text"
} as const

/**
 * The examples of `chat`'s help.
 *
 * @since 0.2.0
 * @category constants
 */
export const chatExamples: ReadonlyArray<Example> = [
  { command: "studio-effect chat \"Name three teas\"", description: "Stream an answer" },
  { command: "echo \"Summarise this\" | studio-effect chat -m fpmodel-large", description: "The prompt on stdin" },
  {
    command: "studio-effect chat -d notes.md -s \"Answer from the notes\" \"When is the review?\"",
    description: "Answer from a local file"
  },
  { command: "studio-effect chat --json-mode --json \"Three colours as JSON\"", description: "JSON mode" }
]

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

/**
 * The largest file `--document` reads.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxDocumentBytes = 1024 * 1024

/**
 * A `--document` file read whole when no larger than `maxDocumentBytes`, opened with `open`: a document whose
 * id is the file's name; a file that cannot be read or is larger gives a refusal naming `--document` and the
 * path.
 *
 * @since 0.2.0
 * @category parsing
 */
export const readDocument = async (
  path: string,
  open: (path: string) => Promise<KeyFileHandle>
): Promise<
  | { readonly _tag: "Document"; readonly id: string; readonly content: string }
  | { readonly _tag: "Invalid"; readonly message: string }
> => {
  try {
    const handle = await open(path)
    try {
      const { size } = await handle.stat()
      if (size > maxDocumentBytes) {
        return { _tag: "Invalid", message: `--document ${path} is ${size} bytes: the most read is ${maxDocumentBytes}` }
      }
      const id = path.split(/[\\/]/u).filter((part) => part !== "").at(-1) ?? path
      return { _tag: "Document", id, content: await handle.readFile("utf8") }
    } finally {
      await handle.close()
    }
  } catch (cause) {
    return { _tag: "Invalid", message: `Cannot read --document ${path}: ${errorCode(cause) ?? String(cause)}` }
  }
}

/**
 * What the `chat` command sends besides its messages, from its options: each field only when given.
 *
 * @since 0.2.0
 * @category models
 */
export interface ChatOptions {
  readonly model: string
  readonly prompt: string
  readonly system?: string | undefined
  readonly temperature?: number | undefined
  readonly topP?: number | undefined
  readonly maxTokens?: number | undefined
  readonly stop: ReadonlyArray<string>
  readonly documents: ReadonlyArray<{ readonly id: string; readonly content: string }>
  readonly jsonMode: boolean
}

/**
 * The chat request of `chat`'s options: the system message (when given) then the prompt, and each field only
 * when its option is given.
 *
 * @since 0.2.0
 * @category constructors
 */
export const chatRequest = (options: ChatOptions) => ({
  model: options.model,
  messages: [
    ...(options.system === undefined ? [] : [{ role: "system" as const, content: options.system }]),
    { role: "user" as const, content: options.prompt }
  ],
  ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
  ...(options.topP === undefined ? {} : { top_p: options.topP }),
  ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
  ...(options.stop.length === 0 ? {} : { stop: [...options.stop] }),
  ...(options.documents.length === 0 ? {} : { documents: options.documents.map((document) => ({ ...document })) }),
  ...(options.jsonMode ? { response_format: { type: "json_object" as const } } : {})
})
