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
  fileRefusal,
  objectInstruction as instruction,
  providerDefinedToolRefusal,
  toolChoiceRefusal,
  undescribedToolRefusal,
  unschemableToolRefusal
} from "studio-effect-core/ai/prompt"
import type { ChatRequest } from "../../ChatSchema.js"
import { aiError } from "./aiError.js"

type Message = ChatRequest["messages"][number]
type ChatTool = NonNullable<ChatRequest["tools"]>[number]
type ChatParameters = NonNullable<ChatTool["function"]["parameters"]>

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

/**
 * The chat tools for a request, none for `toolChoice` `none`; a choice that forces a call, a provider-defined
 * tool and a tool without a description are refused. (`oneOf` has already narrowed `tools` to its subset.)
 */
export const chatTools = (
  options: LanguageModel.ProviderOptions
): Effect.Effect<Array<ChatTool> | undefined, AiError.AiError> =>
  Effect.suspend(() => {
    const choice = options.toolChoice
    if (options.tools.length === 0 || choice === "none") return Effect.succeed(undefined)
    const refused = toolChoiceRefusal(choice)
    if (refused !== undefined) return Effect.fail(invalidInput("prepareTools", refused))
    const tools: Array<ChatTool> = []
    for (const tool of options.tools) {
      if (Tool.isProviderDefined(tool)) {
        return Effect.fail(invalidInput("prepareTools", providerDefinedToolRefusal(tool.name)))
      }
      const description = Tool.getDescription(tool)
      if (description === undefined) return Effect.fail(invalidInput("prepareTools", undescribedToolRefusal(tool.name)))
      // the parameters of a tool are a struct, whose JSON Schema is an object schema
      let parameters: ChatParameters
      try {
        parameters = { ...Tool.getJsonSchema(tool) }
      } catch (cause) {
        return Effect.fail(invalidInput("prepareTools", unschemableToolRefusal(tool.name, cause)))
      }
      tools.push({ type: "function", function: { name: tool.name, description, parameters } })
    }
    return Effect.succeed(tools)
  })

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
