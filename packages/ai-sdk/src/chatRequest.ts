/**
 * The AI SDK's call options as a chat request of the service: the prompt's messages, the settings the
 * service has (`max_tokens`, `temperature`, `top_p`, `stop`), JSON mode (the core's instruction with the
 * schema, and `response_format: json_object`), the tools and the documents of `providerOptions.studio`.
 * What the service lacks is a warning. The request is held to the core's rules (`acceptChatRequest`) before
 * anything is sent: a refused one throws `InvalidArgumentError` naming each field at fault.
 */
import {
  InvalidArgumentError,
  type LanguageModelV4CallOptions,
  type LanguageModelV4FunctionTool,
  type SharedV4Warning
} from "@ai-sdk/provider"
import { chatMessages, chatToolsOf, objectInstruction, type ToolChoice } from "studio-effect-core/ai/prompt"
import { validationMessage } from "studio-effect-core/failure/errorMessages"
import { acceptChatRequest } from "studio-effect-core/validate/chatRequest"
import type { ChatRequest } from "studio-effect-core/wire/chat"
import { corePrompt } from "./prompt.js"
import { requestIssues } from "./requestIssues.js"

/** What `providerOptions.studio` may hold. */
export interface StudioLanguageModelOptions {
  /** Documents the model may draw on: `{ content, id?, metadata? }`, metadata a `{ key: value }` map. */
  readonly documents?: ReadonlyArray<{
    readonly content: string
    readonly id?: string | undefined
    readonly metadata?: Readonly<Record<string, string>> | undefined
  }>
}

/** The settings of the AI SDK the service has no field for. */
const unsupportedSettings = ["topK", "presencePenalty", "frequencyPenalty", "seed"] as const

/** The documents of `providerOptions.studio`, an explicit `null` of a document's field read as absent. */
const documentsOf = (providerOptions: LanguageModelV4CallOptions["providerOptions"]): unknown => {
  const documents = providerOptions?.["studio"]?.["documents"]
  if (!Array.isArray(documents)) return documents ?? undefined
  return documents.map((document: unknown) =>
    typeof document === "object" && document !== null && !Array.isArray(document)
      ? Object.fromEntries(Object.entries(document).filter(([, value]) => value !== null))
      : document
  )
}

/** The core's tool choice for the AI SDK's: a forced one (which the service cannot keep) is a warning. */
const toolChoiceOf = (
  choice: LanguageModelV4CallOptions["toolChoice"],
  warnings: Array<SharedV4Warning>
): ToolChoice => {
  if (choice === undefined || choice.type === "auto") return "auto"
  if (choice.type === "none") return "none"
  warnings.push({
    type: "unsupported",
    feature: "toolChoice",
    details: choice.type === "tool"
      ? `the Studio service cannot force a tool call (it has no tool_choice): only "${choice.toolName}" was sent, ` +
        "and the model may answer without calling it"
      : "the Studio service cannot force a tool call (it has no tool_choice): the tools were sent as with \"auto\""
  })
  return "auto"
}

/** The refusal of a request, before anything is sent. */
const refused = (argument: string, issues: ReadonlyArray<{ readonly path: string; readonly message: string }>) =>
  new InvalidArgumentError({
    argument,
    message: validationMessage({ operation: "chat", source: "client", issues })
  })

/**
 * The chat request of a call, with the warnings of what it leaves out: streamed when `stream` is asked and
 * the service can stream it (`request.stream`); throws `InvalidArgumentError` when it breaks a rule of the
 * interface.
 */
export const chatRequestOf = (
  modelId: string,
  options: LanguageModelV4CallOptions,
  stream: boolean
): { readonly request: ChatRequest; readonly warnings: Array<SharedV4Warning> } => {
  const converted = corePrompt(options.prompt)
  const warnings = [...converted.warnings]
  for (const setting of unsupportedSettings) {
    if (options[setting] !== undefined) warnings.push({ type: "unsupported", feature: setting })
  }
  if (options.reasoning !== undefined && options.reasoning !== "provider-default") {
    warnings.push({
      type: "unsupported",
      feature: "reasoning",
      details: "the Studio service has no reasoning effort: the model reasons as it does by default"
    })
  }
  const choice = toolChoiceOf(options.toolChoice, warnings)
  const functionTools: Array<LanguageModelV4FunctionTool> = []
  for (const tool of options.tools ?? []) {
    if (tool.type === "function") {
      if (options.toolChoice?.type !== "tool" || options.toolChoice.toolName === tool.name) functionTools.push(tool)
    } else {
      warnings.push({ type: "unsupported", feature: `provider-defined tool ${tool.id}` })
    }
  }
  const tools = chatToolsOf(functionTools, choice, {
    isProviderDefined: () => false,
    description: (tool) => tool.description,
    parameters: (tool) => tool.inputSchema
  })
  if (tools._tag === "Refused") throw refused("tools", [{ path: "tools", message: tools.reason }])
  const format = options.responseFormat
  const messages = chatMessages(converted.prompt)
  const documents = documentsOf(options.providerOptions)
  const request: Record<string, unknown> = {
    model: modelId,
    messages: format?.type === "json"
      ? [
        objectInstruction({
          objectName: format.name ?? "generateObject",
          description: format.description,
          jsonSchema: format.schema ?? {}
        }),
        ...messages
      ]
      : messages,
    ...(tools.tools === undefined ? {} : { tools: tools.tools }),
    ...(documents === undefined ? {} : { documents }),
    ...(format?.type === "json" ? { response_format: { type: "json_object" } } : {}),
    ...(options.maxOutputTokens === undefined ? {} : { max_tokens: options.maxOutputTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.topP === undefined ? {} : { top_p: options.topP }),
    ...(options.stopSequences === undefined || options.stopSequences.length === 0
      ? {}
      : { stop: options.stopSequences }),
    // the service streams no request with tools: such a request is sent unstreamed
    ...(stream && tools.tools === undefined ? { stream: true } : {})
  }
  const accepted = acceptChatRequest(request)
  if (accepted === undefined) {
    const issues = requestIssues(request)
    throw refused(issues[0]!.path, issues)
  }
  return { request: accepted, warnings }
}
