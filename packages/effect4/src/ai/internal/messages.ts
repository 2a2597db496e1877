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
import type { ChatRequest } from "../../ChatSchema.js"
import { aiError } from "./aiError.js"

type Message = ChatRequest["messages"][number]
type ChatTool = NonNullable<ChatRequest["tools"]>[number]
type ChatParameters = NonNullable<ChatTool["function"]["parameters"]>

const invalidInput = (method: string, description: string): AiError.AiError =>
  aiError(method, new AiError.InvalidUserInputError({ description }))

/** The JSON text of a value; `undefined` (a tool that returns nothing) is `null`. */
const jsonText = (value: unknown): string => JSON.stringify(value ?? null)

/**
 * The chat messages of a prompt: system and user text, assistant text with its tool calls, and one tool
 * message per tool result. Reasoning parts are dropped (the chat models neither produce nor read them), as
 * are results of provider-executed tools (the service executes none) and the approval requests and answers
 * that `LanguageModel` resolves itself before a request is made.
 */
export const chatMessages = (
  prompt: Prompt.Prompt
): Effect.Effect<Array<Message>, AiError.AiError> =>
  Effect.suspend(() => {
    const messages: Array<Message> = []
    for (const message of prompt.content) {
      switch (message.role) {
        case "system": {
          messages.push({ role: "system", content: message.content })
          break
        }
        case "user": {
          const texts: Array<string> = []
          for (const part of message.content) {
            if (part.type === "file") {
              return Effect.fail(
                invalidInput(
                  "prepareMessages",
                  `the Studio chat models read text only: a file part (${part.mediaType}) cannot be sent`
                )
              )
            }
            texts.push(part.text)
          }
          messages.push({ role: "user", content: texts.join("\n") })
          break
        }
        case "assistant": {
          const texts: Array<string> = []
          const toolCalls: Array<NonNullable<Extract<Message, { role: "assistant" }>["tool_calls"]>[number]> = []
          for (const part of message.content) {
            switch (part.type) {
              case "text":
                texts.push(part.text)
                break
              case "tool-call":
                if (!part.providerExecuted) {
                  toolCalls.push({
                    id: part.id,
                    type: "function",
                    function: { name: part.name, arguments: jsonText(part.params) }
                  })
                }
                break
              case "file":
                return Effect.fail(
                  invalidInput(
                    "prepareMessages",
                    `the Studio chat models read text only: a file part (${part.mediaType}) cannot be sent`
                  )
                )
            }
          }
          // a message of tool calls alone goes back without content, as the service sends it
          messages.push({
            role: "assistant",
            ...(texts.length > 0 || toolCalls.length === 0 ? { content: texts.join("") } : {}),
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {})
          })
          break
        }
        case "tool": {
          for (const part of message.content) {
            if (part.type === "tool-result") {
              messages.push({ role: "tool", tool_call_id: part.id, content: jsonText(part.result) })
            }
          }
          break
        }
      }
    }
    return Effect.succeed(messages)
  })

/**
 * The chat tools for a request. The service has no `tool_choice`: `auto` sends the tools and `none` sends
 * none, which is exactly what they ask; a choice that forces a call cannot be kept and is refused rather
 * than quietly weakened to `auto`. (`oneOf` has already narrowed `tools` to its subset.)
 */
export const chatTools = (
  options: LanguageModel.ProviderOptions
): Effect.Effect<Array<ChatTool> | undefined, AiError.AiError> =>
  Effect.suspend(() => {
    const choice = options.toolChoice
    if (options.tools.length === 0 || choice === "none") return Effect.succeed(undefined)
    const forced = choice === "required" ||
      (typeof choice === "object" && ("tool" in choice || choice.mode === "required"))
    if (forced) {
      return Effect.fail(
        invalidInput(
          "prepareTools",
          "the Studio service cannot force a tool call (it has no tool_choice): use toolChoice \"auto\" or \"none\""
        )
      )
    }
    const tools: Array<ChatTool> = []
    for (const tool of options.tools) {
      if (Tool.isProviderDefined(tool)) {
        return Effect.fail(
          invalidInput(
            "prepareTools",
            `the Studio service has no provider-defined tools: "${tool.name}" cannot be sent; define it with Tool.make`
          )
        )
      }
      const description = Tool.getDescription(tool)
      if (description === undefined) {
        return Effect.fail(
          invalidInput(
            "prepareTools",
            `the tool "${tool.name}" has no description, which the Studio service requires: ` +
              "give Tool.make a description of what it does, returns and its limitations"
          )
        )
      }
      // the parameters of a tool are a struct, whose JSON Schema is an object schema
      const parameters: ChatParameters = { ...Tool.getJsonSchema(tool) }
      tools.push({ type: "function", function: { name: tool.name, description, parameters } })
    }
    return Effect.succeed(tools)
  })

/**
 * The system message that asks for a structured answer: the object's name, the schema's description, and
 * the JSON Schema itself, last, on the line after "JSON Schema:" (where the reference model reads it).
 */
export const objectInstruction = (format: {
  readonly objectName: string
  readonly schema: Schema.Top
}): Message => {
  const description = SchemaAST.resolveDescription(format.schema.ast)
  // the JSON Schema of the codec `generateObject` decodes the answer with
  const { jsonSchema } = LanguageModel.defaultCodecTransformer(format.schema)
  // "generateObject" is the name effect/ai gives when the caller and the schema give none: it says nothing
  const named = format.objectName === "generateObject" ? "" : ` named "${format.objectName}"`
  return {
    role: "system",
    content: [
      `Answer with a single JSON value${named}, and nothing else (no prose, no code fence).`,
      ...(description === undefined ? [] : [`It is: ${description}`]),
      "It must be valid against this JSON Schema:",
      JSON.stringify(jsonSchema)
    ].join("\n")
  }
}
