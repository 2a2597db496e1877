/**
 * The fast path of chat request validation. A usual request (plain data, no `null`, no field the schema
 * does not list) is checked by hand against every rule of the chat request and copied into exactly what the
 * schema decodes it to, over twenty times faster than the schema; anything else gives `undefined` and
 * goes to the schema, which stays the one definition of a chat request and words the errors. A property
 * test of each Effect line holds the two to the same results.
 */
import {
  type AssistantMessage,
  type Bounds,
  canStream,
  type ChatFunction,
  type ChatMessage,
  type ChatRequest,
  type ChatTool,
  choicesBounds,
  type Document,
  type DocumentMetadataMap,
  type FunctionParameters,
  functionParametersTypes,
  hasContentOrToolCalls,
  isMockDelay,
  maxStopLength,
  maxTokensBounds,
  type MockResponseConfig,
  type ResponseFormat,
  responseFormatTypes,
  temperatureBounds,
  type ToolCallInput,
  type ToolCallInputFunction,
  topPBounds
} from "../wire/chat.js"
import {
  type Accept,
  acceptBoolean,
  acceptNonEmptyString,
  acceptString,
  acceptStringRecord,
  acceptStrings,
  acceptUnknownRecord,
  arrayOf,
  copyOptional,
  hasOnlyKeys,
  isPlainObject,
  type Mutable,
  oneOf,
  recordKeys
} from "./accept.js"

const numberIn = ({ max, min }: Bounds): Accept<number> => (value) =>
  typeof value === "number" && value >= min && value <= max ? value : undefined

const integerIn = ({ max, min }: Bounds): Accept<number> => (value) =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max ? value : undefined

// ---------------------------------------------------------------------------------------------------------
// messages
// ---------------------------------------------------------------------------------------------------------

const textMessageKeys = new Set(["role", "content"])
const assistantMessageKeys = new Set(["role", "content", "tool_calls", "reasoning_content"])
const toolMessageKeys = new Set(["role", "content", "tool_call_id"])
const toolCallKeys = new Set(["id", "type", "function"])
const toolCallFunctionKeys = new Set(["name", "arguments"])

const acceptToolCallFunction: Accept<ToolCallInputFunction> = (value) => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, toolCallFunctionKeys)) return undefined
  const decoded: Mutable<ToolCallInputFunction> = {}
  return copyOptional(value, "name", acceptString, decoded) && copyOptional(value, "arguments", acceptString, decoded)
    ? decoded
    : undefined
}

const acceptToolCall: Accept<ToolCallInput> = (value) => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, toolCallKeys)) return undefined
  const decoded: Mutable<ToolCallInput> = {}
  return copyOptional(value, "id", acceptString, decoded) && copyOptional(value, "type", acceptString, decoded) &&
      copyOptional(value, "function", acceptToolCallFunction, decoded)
    ? decoded
    : undefined
}

const acceptToolCalls = arrayOf(acceptToolCall)

const acceptAssistantMessage = (message: Readonly<Record<string, unknown>>): AssistantMessage | undefined => {
  if (!hasOnlyKeys(message, assistantMessageKeys)) return undefined
  const decoded: Mutable<AssistantMessage> = { role: "assistant" }
  if (
    !copyOptional(message, "content", acceptString, decoded) ||
    !copyOptional(message, "tool_calls", acceptToolCalls, decoded) ||
    !copyOptional(message, "reasoning_content", acceptString, decoded)
  ) {
    return undefined
  }
  return hasContentOrToolCalls(decoded) ? decoded : undefined
}

const acceptMessage: Accept<ChatMessage> = (value) => {
  if (!isPlainObject(value)) return undefined
  const role = value.role
  if (role === "assistant") return acceptAssistantMessage(value)
  const content = value.content
  if (typeof content !== "string") return undefined
  if (role === "system" || role === "user") {
    return hasOnlyKeys(value, textMessageKeys) ? { role, content } : undefined
  }
  const toolCallId = value.tool_call_id
  return role === "tool" && typeof toolCallId === "string" && hasOnlyKeys(value, toolMessageKeys)
    ? { role, content, tool_call_id: toolCallId }
    : undefined
}

const acceptMessageList = arrayOf(acceptMessage)

/** At least one message, and every tool message answers a tool call of an earlier assistant message. */
const acceptMessages: Accept<Array<ChatMessage>> = (value) => {
  const messages = acceptMessageList(value)
  if (messages === undefined || messages.length === 0) return undefined
  const callIds = new Set<string>()
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) {
        if (call.id !== undefined) callIds.add(call.id)
      }
    } else if (message.role === "tool" && !callIds.has(message.tool_call_id)) {
      return undefined
    }
  }
  return messages
}

// ---------------------------------------------------------------------------------------------------------
// tools and documents
// ---------------------------------------------------------------------------------------------------------

const toolKeys = new Set(["type", "function"])
const functionKeys = new Set(["name", "description", "parameters"])
const listedParameterKeys = new Set(["type", "properties", "required"])
const acceptParametersType = oneOf(functionParametersTypes)

/**
 * `FunctionParameters`: its three listed fields checked, then every other key kept as given (`undefined`
 * too), after them, as the schema's index signature adds them.
 */
const acceptFunctionParameters: Accept<FunctionParameters> = (value) => {
  if (!isPlainObject(value)) return undefined
  const keys = recordKeys(value)
  if (keys === undefined) return undefined
  const decoded: Mutable<FunctionParameters> = {}
  if (
    !copyOptional(value, "type", acceptParametersType, decoded) ||
    !copyOptional(value, "properties", acceptUnknownRecord, decoded) ||
    !copyOptional(value, "required", acceptStrings, decoded)
  ) {
    return undefined
  }
  for (const key of keys) {
    if (!listedParameterKeys.has(key)) decoded[key] = value[key]
  }
  return decoded
}

const acceptTool: Accept<ChatTool> = (value) => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, toolKeys) || value.type !== "function") return undefined
  const fn = value.function
  if (!isPlainObject(fn) || !hasOnlyKeys(fn, functionKeys)) return undefined
  const name = acceptNonEmptyString(fn.name)
  const description = acceptString(fn.description)
  if (name === undefined || description === undefined) return undefined
  const decoded: Mutable<ChatFunction> = { name, description }
  return copyOptional(fn, "parameters", acceptFunctionParameters, decoded)
    ? { type: "function", function: decoded }
    : undefined
}

const metadataEntryKeys = new Set(["key", "value"])

const acceptMetadataEntries = arrayOf((entry) =>
  isPlainObject(entry) && hasOnlyKeys(entry, metadataEntryKeys) && typeof entry.key === "string" &&
    typeof entry.value === "string"
    ? { key: entry.key, value: entry.value }
    : undefined
)

/**
 * A document's metadata as the `{ key: value }` map it is decoded to: a map is copied, a
 * `[{ key, value }]` list (each key once, none `__proto__`) becomes one.
 */
const acceptMetadata: Accept<DocumentMetadataMap> = (value) => {
  if (!Array.isArray(value)) return acceptStringRecord(value)
  const entries = acceptMetadataEntries(value)
  if (entries === undefined) return undefined
  const map: Record<string, string> = {}
  for (const { key, value } of entries) {
    if (key === "__proto__" || Object.hasOwn(map, key)) return undefined
    map[key] = value
  }
  return map
}

const documentKeys = new Set(["id", "content", "metadata"])

const acceptDocument: Accept<Document> = (value) => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, documentKeys)) return undefined
  const content = acceptString(value.content)
  if (content === undefined) return undefined
  // assigned in the schema's order: id, content, metadata
  const decoded = {} as Mutable<Document>
  if (!copyOptional(value, "id", acceptString, decoded)) return undefined
  decoded.content = content
  return copyOptional(value, "metadata", acceptMetadata, decoded) ? decoded : undefined
}

// ---------------------------------------------------------------------------------------------------------
// the request
// ---------------------------------------------------------------------------------------------------------

const responseFormatKeys = new Set(["type"])
const acceptResponseFormatType = oneOf(responseFormatTypes)

const acceptResponseFormat: Accept<ResponseFormat> = (value) => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, responseFormatKeys)) return undefined
  const type = acceptResponseFormatType(value.type)
  return type === undefined ? undefined : { type }
}

const acceptStopSequence: Accept<string> = (value) =>
  typeof value === "string" && value.length <= maxStopLength ? value : undefined

const acceptStopSequences = arrayOf(acceptStopSequence)

/** One stop sequence or a list of them. */
const acceptStop: Accept<string | Array<string>> = (value) =>
  typeof value === "string" ? acceptStopSequence(value) : acceptStopSequences(value)

const acceptTools = arrayOf(acceptTool)
const acceptDocuments = arrayOf(acceptDocument)
const acceptMaxTokens = integerIn(maxTokensBounds)
const mockResponseKeys = new Set(["response_delay_seconds", "stream_response_delay_between_deltas_seconds"])
const acceptMockDelay: Accept<number> = (value) => typeof value === "number" && isMockDelay(value) ? value : undefined

const acceptMockResponse: Accept<MockResponseConfig> = (value) => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, mockResponseKeys)) return undefined
  const decoded: Mutable<MockResponseConfig> = {}
  return copyOptional(value, "response_delay_seconds", acceptMockDelay, decoded) &&
      copyOptional(value, "stream_response_delay_between_deltas_seconds", acceptMockDelay, decoded)
    ? decoded
    : undefined
}

const acceptTemperature = numberIn(temperatureBounds)
const acceptTopP = numberIn(topPBounds)
const acceptN = integerIn(choicesBounds)

const requestKeys = new Set([
  "model",
  "messages",
  "tools",
  "documents",
  "response_format",
  "max_tokens",
  "temperature",
  "top_p",
  "mock_response",
  "stop",
  "n",
  "stream"
])

/**
 * The decoded chat request, when `input` is a usual one and keeps every rule of the chat request;
 * otherwise `undefined`, and the schema decides.
 */
export const acceptChatRequest = (input: unknown): ChatRequest | undefined => {
  if (!isPlainObject(input) || !hasOnlyKeys(input, requestKeys)) return undefined
  const model = acceptNonEmptyString(input.model)
  const messages = acceptMessages(input.messages)
  if (model === undefined || messages === undefined) return undefined
  const request: Mutable<ChatRequest> = { model, messages }
  const fieldsValid = copyOptional(input, "tools", acceptTools, request) &&
    copyOptional(input, "documents", acceptDocuments, request) &&
    copyOptional(input, "response_format", acceptResponseFormat, request) &&
    copyOptional(input, "max_tokens", acceptMaxTokens, request) &&
    copyOptional(input, "mock_response", acceptMockResponse, request) &&
    copyOptional(input, "temperature", acceptTemperature, request) &&
    copyOptional(input, "top_p", acceptTopP, request) &&
    copyOptional(input, "stop", acceptStop, request) &&
    copyOptional(input, "n", acceptN, request) &&
    copyOptional(input, "stream", acceptBoolean, request)
  if (!fieldsValid) return undefined
  // the rules that relate several fields
  const n = request.n ?? 1
  if (n > 1 && request.temperature === 0) return undefined
  if (request.stream === true && !canStream(request)) return undefined
  return request
}
