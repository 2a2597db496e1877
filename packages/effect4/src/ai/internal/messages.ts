/**
 * `effect/ai`'s prompt, tools and response format as the fields of a chat request. The rules of the
 * interface are left to `Chat.create`, which checks every request; only what a chat request cannot express
 * at all (files, provider-defined tools, a forced tool choice) is refused here.
 */
import * as AiError from "effect/ai/AiError"
import * as LanguageModel from "effect/ai/LanguageModel"
import type * as Prompt from "effect/ai/Prompt"
import * as Tool from "effect/ai/Tool"
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import {
  chatMessages as messagesOf,
  chatToolsOf,
  fileRefusal,
  objectInstruction as instruction,
  type ToolReader
} from "studio-effect-core/ai/prompt"
import type { ChatRequest } from "../../ChatSchema.js"
import { aiError } from "./aiError.js"

type Message = ChatRequest["messages"][number]
type ChatTool = NonNullable<ChatRequest["tools"]>[number]

const invalidInput = (method: string, description: string): AiError.AiError =>
  aiError(method, new AiError.InvalidUserInputError({ description }))

/**
 * The chat messages of a prompt: system and user text, assistant text with its tool calls, and one tool
 * message per tool result. A prompt with a file part is refused: the chat models read text only.
 */
export const chatMessages = (
  prompt: Prompt.Prompt
): Effect.Effect<Array<Message>, AiError.AiError> =>
  Effect.suspend(() => {
    const refused = fileRefusal(prompt)
    return refused === undefined
      ? Effect.succeed(messagesOf(prompt))
      : Effect.fail(invalidInput("prepareMessages", refused))
  })

/** The chat tools for a request (see the core's `chatToolsOf`), or why they cannot be sent. */
export const chatTools = (
  options: LanguageModel.ProviderOptions
): Effect.Effect<Array<ChatTool> | undefined, AiError.AiError> =>
  Effect.suspend(() => {
    const read = chatToolsOf(options.tools, options.toolChoice, toolReader)
    return read._tag === "Tools" ? Effect.succeed(read.tools) : Effect.fail(invalidInput("prepareTools", read.reason))
  })

/** How the tools of the AI module are read. */
const toolReader: ToolReader<LanguageModel.ProviderOptions["tools"][number]> = {
  isProviderDefined: Tool.isProviderDefined,
  description: Tool.getDescription,
  parameters: Tool.getJsonSchema
}

/** The system message that asks for a structured answer by the schema `generateObject` was given. */
export const objectInstruction = (format: {
  readonly objectName: string
  readonly schema: Schema.Top
}): Message =>
  instruction({
    objectName: format.objectName,
    description: SchemaAST.resolveDescription(format.schema.ast),
    // the JSON Schema of the codec `generateObject` decodes the answer with
    jsonSchema: LanguageModel.defaultCodecTransformer(format.schema).jsonSchema
  })
