/**
 * An AI library's prompt, tools and response format as the fields of a chat request. The rules of the
 * interface are left to the chat request's own checks; only what a chat request cannot express at all
 * (files, provider-defined tools, a forced tool choice) is refused here, with the reason as text.
 *
 * The prompt is typed by the fields read here: the messages of `LanguageModel`'s prompt (in both AI
 * libraries) are of these shapes.
 *
 * @since 1.0.0
 */
import { clip } from "../text/codePoints.js"
import { visibleControls } from "../text/visibleControls.js"
import type {
  AssistantMessage,
  ChatMessage,
  ChatTool,
  FunctionParameters,
  SystemMessage,
  ToolCallInput
} from "../wire/chat.js"

export interface PromptTextPart {
  readonly type: "text"
  readonly text: string
}

export interface PromptFilePart {
  readonly type: "file"
  readonly mediaType: string
}

export interface PromptToolCallPart {
  readonly type: "tool-call"
  readonly id: string
  readonly name: string
  readonly params: unknown
  readonly providerExecuted: boolean
}

export interface PromptToolResultPart {
  readonly type: "tool-result"
  readonly id: string
  readonly result: unknown
}

/** The model's reasoning, sent back on its assistant message as `reasoning_content`. */
export interface PromptReasoningPart {
  readonly type: "reasoning"
  readonly text: string
}

/**
 * Parts that no chat message holds: the approval requests and answers that `LanguageModel` resolves itself
 * before a request is made.
 */
export interface UnsentPart {
  readonly type: "tool-approval-request" | "tool-approval-response"
}

export type PromptMessage =
  | { readonly role: "system"; readonly content: string }
  | { readonly role: "user"; readonly content: ReadonlyArray<PromptTextPart | PromptFilePart> }
  | {
    readonly role: "assistant"
    readonly content: ReadonlyArray<
      PromptTextPart | PromptFilePart | PromptReasoningPart | PromptToolCallPart | PromptToolResultPart | UnsentPart
    >
  }
  | { readonly role: "tool"; readonly content: ReadonlyArray<PromptToolResultPart | UnsentPart> }

export interface Prompt {
  readonly content: ReadonlyArray<PromptMessage>
}

/** The JSON text of a value; `undefined` (a tool that returns nothing) is `null`. */
const jsonText = (value: unknown): string => JSON.stringify(value ?? null)

/** Why a prompt cannot be sent: its first file part, which the chat models cannot read; none without one. */
export const fileRefusal = (prompt: Prompt): string | undefined => {
  for (const message of prompt.content) {
    if (message.role !== "user" && message.role !== "assistant") continue
    for (const part of message.content) {
      if (part.type === "file") {
        return `the Studio chat models read text only: a file part (${part.mediaType}) cannot be sent`
      }
    }
  }
  return undefined
}

/**
 * The chat messages of a prompt that `fileRefusal` lets through: system and user text, assistant text with
 * its reasoning and tool calls, and one tool message per tool result. Unsent parts are dropped, as are results of
 * provider-executed tools (the service executes none).
 */
export const chatMessages = (prompt: Prompt): Array<ChatMessage> => {
  const messages: Array<ChatMessage> = []
  for (const message of prompt.content) {
    switch (message.role) {
      case "system": {
        messages.push({ role: "system", content: message.content })
        break
      }
      case "user": {
        const texts = message.content.flatMap((part) => part.type === "text" ? [part.text] : [])
        messages.push({ role: "user", content: texts.join("\n") })
        break
      }
      case "assistant": {
        const texts: Array<string> = []
        const reasoning: Array<string> = []
        const toolCalls: Array<ToolCallInput> = []
        for (const part of message.content) {
          if (part.type === "text") texts.push(part.text)
          else if (part.type === "reasoning") reasoning.push(part.text)
          else if (part.type === "tool-call" && !part.providerExecuted) {
            toolCalls.push({
              id: part.id,
              type: "function",
              function: { name: part.name, arguments: jsonText(part.params) }
            })
          }
        }
        // a message of tool calls alone goes back without content, as the service sends it
        const assistant: AssistantMessage = {
          role: "assistant",
          ...(texts.length > 0 || toolCalls.length === 0 ? { content: texts.join("") } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          ...(reasoning.length > 0 ? { reasoning_content: reasoning.join("") } : {})
        }
        messages.push(assistant)
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
  return messages
}

/** `LanguageModel`'s tool choice. */
export type ToolChoice =
  | "auto"
  | "none"
  | "required"
  | { readonly tool: string }
  | { readonly mode?: "auto" | "required"; readonly oneOf: ReadonlyArray<string> }

/**
 * Why a tool choice cannot be sent: the service has no `tool_choice`, so `auto` sends the tools and `none`
 * sends none, which is exactly what they ask; a choice that forces a call cannot be kept and is refused
 * rather than quietly weakened to `auto`. None for a choice that can be sent.
 */
export const toolChoiceRefusal = (choice: ToolChoice): string | undefined => {
  const forced = choice === "required" ||
    (typeof choice === "object" && ("tool" in choice || choice.mode === "required"))
  return forced
    ? "the Studio service cannot force a tool call (it has no tool_choice): use toolChoice \"auto\" or \"none\""
    : undefined
}

/** A tool's name, or what went wrong, as a refusal quotes it: cut short, its controls made visible. */
const quoted = (text: string, max = 100): string => visibleControls(clip(text, max))

/** Why a provider-defined tool cannot be sent: the service has none. */
const providerDefinedToolRefusal = (name: string): string =>
  `the Studio service has no provider-defined tools: "${quoted(name)}" cannot be sent; define it with Tool.make`

/** Why a tool without a description cannot be sent: the service requires one. */
const undescribedToolRefusal = (name: string): string =>
  `the tool "${quoted(name)}" has no description, which the Studio service requires: ` +
  "give Tool.make a description of what it does, returns and its limitations"

/**
 * Why a tool's parameters cannot be sent: their schema has no JSON Schema (nested too deeply, or of a kind
 * JSON Schema cannot describe); `cause` is what the conversion threw.
 */
const unschemableToolRefusal = (name: string, cause: unknown): string =>
  `the parameters of the tool "${quoted(name)}" cannot be described as JSON Schema ` +
  `(${quoted(cause instanceof Error ? cause.message : String(cause), 200)}): give Tool.make a schema of plain fields`

/**
 * How a line reads the tools of its AI module: whether one is provider-defined, its description (its own or
 * its parameters'), and the JSON Schema of its parameters (which may throw).
 */
export interface ToolReader<T> {
  readonly isProviderDefined: (tool: T) => boolean
  readonly description: (tool: T) => string | undefined
  readonly parameters: (tool: T) => object
}

/**
 * The chat tools for a request, none for `toolChoice` `none`; or why they cannot be sent: a choice that
 * forces a call, a provider-defined tool, a tool without a description, or parameters without a JSON Schema.
 * (`oneOf` has already narrowed `tools` to its subset.)
 */
export const chatToolsOf = <T extends { readonly name: string }>(
  tools: ReadonlyArray<T>,
  choice: ToolChoice,
  read: ToolReader<T>
): { readonly _tag: "Tools"; readonly tools: Array<ChatTool> | undefined } | {
  readonly _tag: "Refused"
  readonly reason: string
} => {
  if (tools.length === 0 || choice === "none") return { _tag: "Tools", tools: undefined }
  const refused = (reason: string) => ({ _tag: "Refused", reason }) as const
  const forced = toolChoiceRefusal(choice)
  if (forced !== undefined) return refused(forced)
  const chatTools: Array<ChatTool> = []
  for (const tool of tools) {
    if (read.isProviderDefined(tool)) return refused(providerDefinedToolRefusal(tool.name))
    const description = read.description(tool)
    if (description === undefined) return refused(undescribedToolRefusal(tool.name))
    // the parameters of a tool are a struct, whose JSON Schema is an object schema
    let parameters: FunctionParameters
    try {
      parameters = { ...read.parameters(tool) } as FunctionParameters
    } catch (cause) {
      return refused(unschemableToolRefusal(tool.name, cause))
    }
    chatTools.push({ type: "function", function: { name: tool.name, description, parameters } })
  }
  return { _tag: "Tools", tools: chatTools }
}

/**
 * The system message that asks for a structured answer: the object's name, the schema's description, and
 * the JSON Schema itself, last, on the line after "JSON Schema:" (where the reference model reads it).
 */
export const objectInstruction = (format: {
  readonly objectName: string
  readonly description: string | undefined
  readonly jsonSchema: unknown
}): SystemMessage => {
  // "generateObject" is the name `LanguageModel` gives when the caller and the schema give none: it says nothing
  const named = format.objectName === "generateObject" ? "" : ` named "${format.objectName}"`
  return {
    role: "system",
    content: [
      `Answer with a single JSON value${named}, and nothing else (no prose, no code fence).`,
      ...(format.description === undefined ? [] : [`It is: ${format.description}`]),
      "It must be valid against this JSON Schema:",
      JSON.stringify(format.jsonSchema)
    ].join("\n")
  }
}
