/**
 * The chat completion operation on the wire: the request as it is once validated (every rule kept, an
 * explicit `null` read as absent, a document's metadata as a map), the completion and the streamed chunk
 * as they are once decoded, the literal tables, and the limits of the interface. Field names are the wire
 * names. Each Effect line's schemas decode to these types and build their literals from these tables.
 *
 * @since 0.1.0
 */

// ---------------------------------------------------------------------------------------------------------
// limits
// ---------------------------------------------------------------------------------------------------------

/**
 * The bounds of a numeric field, both included.
 *
 * @since 0.1.0
 * @category limits
 */
export interface Bounds {
  readonly min: number
  readonly max: number
}

/**
 * `max_tokens`: an integer from 1 to 4096.
 *
 * @since 0.1.0
 * @category limits
 */
export const maxTokensBounds: Bounds = { min: 1, max: 4096 }

/**
 * `temperature`: from 0.0 to 2.0.
 *
 * @since 0.1.0
 * @category limits
 */
export const temperatureBounds: Bounds = { min: 0, max: 2 }

/**
 * The `temperature` of a request that sets none.
 *
 * @since 0.1.0
 * @category limits
 */
export const defaultTemperature = 0.4

/**
 * `top_p`: from 0.0 to 1.0.
 *
 * @since 0.1.0
 * @category limits
 */
export const topPBounds: Bounds = { min: 0, max: 1 }

/**
 * `n`, the number of choices: an integer from 1 to 16.
 *
 * @since 0.1.0
 * @category limits
 */
export const choicesBounds: Bounds = { min: 1, max: 16 }

/**
 * The longest stop sequence: 64K characters.
 *
 * @since 0.1.0
 * @category limits
 */
export const maxStopLength = 64 * 1024

// ---------------------------------------------------------------------------------------------------------
// messages
// ---------------------------------------------------------------------------------------------------------

/**
 * The roles of a chat message, each its own kind of message.
 *
 * @since 0.1.0
 * @category tables
 */
export const chatRoles = ["system", "user", "assistant", "tool"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type ChatRole = typeof chatRoles[number]

/**
 * The function of a tool call sent back in the history.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolCallInputFunction {
  readonly name?: string | undefined
  readonly arguments?: string | undefined
}

/**
 * A tool call as sent back in the history (every field optional, as the interface lists them). A
 * `ToolCall` of a completion is one, unchanged.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolCallInput {
  readonly id?: string | undefined
  readonly type?: string | undefined
  readonly function?: ToolCallInputFunction | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface SystemMessage {
  readonly role: "system"
  readonly content: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface UserMessage {
  readonly role: "user"
  readonly content: string
}

/**
 * A message of the model in the history. `content` may be absent when the message has `tool_calls`.
 *
 * @since 0.1.0
 * @category models
 */
export interface AssistantMessage {
  readonly role: "assistant"
  readonly content?: string | undefined
  readonly tool_calls?: ReadonlyArray<ToolCallInput> | undefined
  /** The model's reasoning, as a completion's message carried it (`null` is sent on as left out). */
  readonly reasoning_content?: string | undefined
}

/**
 * Whether an assistant message says something: content, or at least one tool call.
 *
 * @since 0.1.0
 * @category rules
 */
export const hasContentOrToolCalls = (message: Omit<AssistantMessage, "role">): boolean =>
  message.content !== undefined || (message.tool_calls !== undefined && message.tool_calls.length > 0)

/**
 * The output of a tool, answering the assistant's tool call `tool_call_id`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolMessage {
  readonly role: "tool"
  readonly content: string
  readonly tool_call_id: string
}

/**
 * A chat message, discriminated by `role`.
 *
 * @since 0.1.0
 * @category models
 */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage

// ---------------------------------------------------------------------------------------------------------
// tools and documents
// ---------------------------------------------------------------------------------------------------------

/**
 * The `type` a function's parameters may state.
 *
 * @since 0.1.0
 * @category tables
 */
export const functionParametersTypes = ["object"] as const

/**
 * The JSON Schema of a function's parameters: the three fields listed, and any other keyword as given.
 *
 * @since 0.1.0
 * @category models
 */
export interface FunctionParameters {
  readonly type?: typeof functionParametersTypes[number] | undefined
  readonly properties?: { readonly [key: string]: unknown } | undefined
  readonly required?: ReadonlyArray<string> | undefined
  readonly [key: string]: unknown
}

/**
 * The kinds of chat tool: only `function` exists.
 *
 * @since 0.1.0
 * @category tables
 */
export const chatToolTypes = ["function"] as const

/**
 * A function the model may call, described by the caller.
 *
 * @since 0.1.0
 * @category models
 */
export interface ChatFunction {
  readonly name: string
  readonly description: string
  readonly parameters?: FunctionParameters | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ChatTool {
  readonly type: typeof chatToolTypes[number]
  readonly function: ChatFunction
}

/**
 * A metadata entry of a document in the list shape, such as `{ key: "author", value: "…" }`.
 *
 * @since 0.1.0
 * @category models
 */
export interface DocumentMetadata {
  readonly key: string
  readonly value: string
}

/**
 * The metadata of a document as the real service defines it and as it is sent: a `{ key: value }` map.
 *
 * @since 0.1.0
 * @category models
 */
export interface DocumentMetadataMap {
  readonly [key: string]: string
}

/**
 * A document the model may draw on.
 *
 * @since 0.1.0
 * @category models
 */
export interface Document {
  readonly id?: string | undefined
  readonly content: string
  readonly metadata?: DocumentMetadataMap | undefined
}

/**
 * The answer formats: `json_object` turns on JSON mode.
 *
 * @since 0.1.0
 * @category tables
 */
export const responseFormatTypes = ["text", "json_object"] as const

/**
 * @since 0.1.0
 * @category models
 */
export interface ResponseFormat {
  readonly type: typeof responseFormatTypes[number]
}

// ---------------------------------------------------------------------------------------------------------
// the request
// ---------------------------------------------------------------------------------------------------------

/**
 * A chat completion request that keeps every rule of the interface.
 *
 * @since 0.1.0
 * @category models
 */
export interface ChatRequest {
  readonly model: string
  readonly messages: ReadonlyArray<ChatMessage>
  readonly tools?: ReadonlyArray<ChatTool> | undefined
  readonly documents?: ReadonlyArray<Document> | undefined
  readonly response_format?: ResponseFormat | undefined
  readonly max_tokens?: number | undefined
  readonly temperature?: number | undefined
  readonly top_p?: number | undefined
  readonly stop?: string | ReadonlyArray<string> | undefined
  readonly n?: number | undefined
  readonly stream?: boolean | undefined
  readonly mock_response?: MockResponseConfig | undefined
}

/**
 * A request for a mock answer, for testing a client's handling of time: the service waits
 * `response_delay_seconds` (1 when left out) before it answers, and `stream_response_delay_between_deltas_seconds`
 * (0.1 when left out) between the events of a stream. Each is a number of seconds, 0 or more.
 *
 * @since 1.1.0
 * @category models
 */
export interface MockResponseConfig {
  readonly response_delay_seconds?: number | undefined
  readonly stream_response_delay_between_deltas_seconds?: number | undefined
}

/**
 * Whether a mock answer's delay is a number of seconds the service takes: finite, 0 or more.
 *
 * @since 1.1.0
 * @category rules
 */
export const isMockDelay = (value: number): boolean => Number.isFinite(value) && value >= 0

/**
 * Whether the service can stream a completion of this request: a streamed completion has exactly one choice
 * and calls no tool.
 *
 * @since 0.1.0
 * @category rules
 */
export const canStream = (request: {
  readonly n?: number | null | undefined
  readonly tools?: ReadonlyArray<unknown> | null | undefined
}): boolean =>
  (request.n ?? 1) === 1 && (request.tools === undefined || request.tools === null || request.tools.length === 0)

// ---------------------------------------------------------------------------------------------------------
// the response
// ---------------------------------------------------------------------------------------------------------

/*
 * Every object of an answer keeps the fields the schemas do not name, as the service sent them: the
 * index signature of each type below.
 */

/**
 * Token counts of a completion.
 *
 * @since 0.1.0
 * @category models
 */
export interface Usage {
  readonly prompt_tokens: number
  readonly completion_tokens: number
  readonly total_tokens: number
  readonly [key: string]: unknown
}

/**
 * The function a tool call names, with its `arguments` as a JSON string.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolCallFunction {
  readonly name: string
  readonly arguments: string
  readonly [key: string]: unknown
}

/**
 * A tool call made by the model.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolCall {
  readonly id: string
  readonly type: string
  readonly function: ToolCallFunction
  readonly [key: string]: unknown
}

/**
 * The generated message of one choice; `reasoning_content` is the model's reasoning, when it shows it.
 *
 * @since 0.1.0
 * @category models
 */
export interface CompletionMessage {
  readonly role: "assistant"
  readonly content: string | null
  readonly tool_calls: ReadonlyArray<ToolCall> | null
  readonly reasoning_content?: string | null | undefined
  readonly [key: string]: unknown
}

/**
 * The reasons generation stops that the interface names: `stop`, `length` (max_tokens reached) and
 * `tool_calls`.
 *
 * @since 0.1.0
 * @category tables
 */
export const finishReasons = ["stop", "length", "tool_calls"] as const

/**
 * Why generation stopped: one of `finishReasons`, or a newer reason.
 *
 * @since 0.1.0
 * @category models
 */
export type FinishReason = typeof finishReasons[number] | (string & {})

/**
 * One of the likeliest tokens at a position.
 *
 * @since 0.1.0
 * @category models
 */
export interface TopLogprob {
  readonly token: string
  readonly logprob: number
  readonly [key: string]: unknown
}

/**
 * A generated token with its log probability, and the likeliest tokens at its position.
 *
 * @since 0.1.0
 * @category models
 */
export interface TokenLogprob {
  readonly token: string
  readonly logprob: number
  readonly top_logprobs?: ReadonlyArray<TopLogprob> | null | undefined
  readonly [key: string]: unknown
}

/**
 * The log probabilities of a choice's tokens.
 *
 * @since 0.1.0
 * @category models
 */
export interface Logprobs {
  readonly content: ReadonlyArray<TokenLogprob> | null
  readonly [key: string]: unknown
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ChatCompletionChoice {
  readonly index: number
  readonly message: CompletionMessage
  readonly logprobs: Logprobs | null
  readonly finish_reason: FinishReason | null
  readonly [key: string]: unknown
}

/**
 * What the service says about an answer beyond its content, as it sends it.
 *
 * @since 0.1.0
 * @category models
 */
export interface CompletionMeta {
  readonly [key: string]: unknown
}

/**
 * A chat completion.
 *
 * @since 0.1.0
 * @category models
 */
export interface ChatCompletion {
  readonly id: string
  readonly choices: ReadonlyArray<ChatCompletionChoice>
  readonly usage: Usage
  readonly meta?: CompletionMeta | null | undefined
  readonly [key: string]: unknown
}

// ---------------------------------------------------------------------------------------------------------
// the stream
// ---------------------------------------------------------------------------------------------------------

/**
 * The function of a piece of a tool call: its `name` in the first piece, more of its `arguments` after.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolCallDeltaFunction {
  readonly name?: string | undefined
  readonly arguments?: string | undefined
  readonly [key: string]: unknown
}

/**
 * A piece of a tool call in a stream: the first piece of a call carries `id`, `type` and `function.name`;
 * later pieces carry more of `function.arguments`. Pieces belong together by `index`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolCallDelta {
  readonly index: number
  readonly id?: string | undefined
  readonly type?: string | undefined
  readonly function?: ToolCallDeltaFunction | undefined
  readonly [key: string]: unknown
}

/**
 * The change a chunk brings to one choice: the role (first chunk), more of the model's reasoning, more
 * content, or pieces of tool calls.
 *
 * @since 0.1.0
 * @category models
 */
export interface ChatDelta {
  readonly role?: string | undefined
  readonly content?: string | null | undefined
  readonly reasoning_content?: string | null | undefined
  readonly tool_calls?: ReadonlyArray<ToolCallDelta> | null | undefined
  readonly [key: string]: unknown
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ChatCompletionChunkChoice {
  readonly index: number
  readonly delta: ChatDelta
  readonly logprobs?: Logprobs | null | undefined
  readonly finish_reason: FinishReason | null
  readonly [key: string]: unknown
}

/**
 * One event of a streamed completion. Only the last chunk carries `usage`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ChatCompletionChunk {
  readonly id: string
  readonly choices: ReadonlyArray<ChatCompletionChunkChoice>
  readonly usage: Usage | null
  readonly meta?: CompletionMeta | null | undefined
  readonly [key: string]: unknown
}
