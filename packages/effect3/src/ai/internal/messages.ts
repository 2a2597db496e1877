/**
 * `@effect/ai`'s prompt, tools and response format as the fields of a chat request. The rules of the
 * interface are left to `Chat.create`, which checks every request; only what a chat request cannot express
 * at all (files, provider-defined tools, a forced tool choice) is refused here.
 */
import * as AiError from "@effect/ai/AiError"
import type * as LanguageModel from "@effect/ai/LanguageModel"
import type * as Prompt from "@effect/ai/Prompt"
import * as Tool from "@effect/ai/Tool"
import * as Effect from "effect/Effect"
import {
  chatMessages as messagesOf,
  chatToolsOf,
  fileRefusal,
  objectInstruction as instruction,
  type ToolReader
} from "studio-effect-core/ai/prompt"
import type { ChatRequest } from "../../ChatSchema.js"

type Message = ChatRequest["messages"][number]
type ChatTool = NonNullable<ChatRequest["tools"]>[number]

const module = "StudioLanguageModel"

const malformedInput = (method: string, description: string) =>
  new AiError.MalformedInput({ module, method, description })

/**
 * The chat messages of a prompt: system and user text, assistant text with its tool calls, and one tool
 * message per tool result. A prompt with a file part is refused: the chat models read text only.
 */
export const chatMessages = (
  prompt: Prompt.Prompt
): Effect.Effect<Array<Message>, AiError.MalformedInput> =>
  Effect.suspend(() => {
    const refused = fileRefusal(prompt)
    return refused === undefined
      ? Effect.succeed(messagesOf(prompt))
      : Effect.fail(malformedInput("prepareMessages", refused))
  })

/** The chat tools for a request (see the core's `chatToolsOf`), or why they cannot be sent. */
export const chatTools = (
  options: LanguageModel.ProviderOptions
): Effect.Effect<Array<ChatTool> | undefined, AiError.MalformedInput> =>
  Effect.suspend(() => {
    const read = chatToolsOf(options.tools, options.toolChoice, toolReader)
    return read._tag === "Tools" ? Effect.succeed(read.tools) : Effect.fail(malformedInput("prepareTools", read.reason))
  })

/** How the tools of the AI module are read. */
const toolReader: ToolReader<LanguageModel.ProviderOptions["tools"][number]> = {
  isProviderDefined: Tool.isProviderDefined,
  description: (tool) => tool.description ?? Tool.getDescriptionFromSchemaAst(tool.parametersSchema.ast),
  parameters: (tool) => Tool.getJsonSchemaFromSchemaAst(tool.parametersSchema.ast)
}

/** The system message that asks for a structured answer by the schema `generateObject` was given. */
export const objectInstruction = (format: {
  readonly objectName: string
  readonly schema: { readonly ast: Parameters<typeof Tool.getJsonSchemaFromSchemaAst>[0] }
}): Message =>
  instruction({
    objectName: format.objectName,
    description: Tool.getDescriptionFromSchemaAst(format.schema.ast),
    jsonSchema: Tool.getJsonSchemaFromSchemaAst(format.schema.ast)
  })
