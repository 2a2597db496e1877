/**
 * Schemas of the chat completion operation: the request with every rule of the interface, the completion,
 * and the streamed chunk. Field names are the wire names.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { showValue } from "studio-effect-core/validate/issues"
import {
  type Bounds,
  chatToolTypes,
  choicesBounds,
  finishReasons,
  functionParametersTypes,
  hasContentOrToolCalls,
  isMockDelay,
  maxStopLength,
  maxTokensBounds,
  responseFormatTypes,
  temperatureBounds,
  topPBounds
} from "studio-effect-core/wire/chat"
import type { ChatModel } from "studio-effect-core/wire/models"
import { withWholeChecks } from "./internal/schema/issues.js"
import { openStruct } from "./internal/schema/open.js"
import { optional } from "./internal/schema/optional.js"

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// ---------------------------------------------------------------------------------------------------------
// messages
// ---------------------------------------------------------------------------------------------------------

/**
 * A tool call as sent back in the history (every field optional, as the interface lists them). A
 * `ToolCall` of a completion is one, unchanged.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ToolCallInput = Schema.Struct({
  id: optional(Schema.String),
  type: optional(Schema.String),
  function: optional(Schema.Struct({
    name: optional(Schema.String),
    arguments: optional(Schema.String)
  }))
})

/**
 * @since 0.1.0
 * @category schemas
 */
export const SystemMessage = Schema.Struct({
  role: Schema.Literal("system"),
  content: Schema.String
})

/**
 * @since 0.1.0
 * @category schemas
 */
export const UserMessage = Schema.Struct({
  role: Schema.Literal("user"),
  content: Schema.String
})

/**
 * A message of the model in the history: the `message` of a completion's choice validates unchanged, its
 * reasoning (`reasoning_content`) included. `content` may be `null` or left out when the message has
 * `tool_calls`, and `tool_calls: null` means none (both are sent on as left out); a message with neither
 * content nor tool calls is refused.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AssistantMessage = Schema.Struct({
  role: Schema.Literal("assistant"),
  content: optional(Schema.String),
  tool_calls: optional(Schema.Array(ToolCallInput)),
  reasoning_content: optional(Schema.String)
}).pipe(
  Schema.filter((message) =>
    hasContentOrToolCalls(message) || {
      path: ["content"],
      message: "an assistant message needs content or at least one tool call"
    }
  )
)

/**
 * The output of a tool, answering the assistant's tool call `tool_call_id`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ToolMessage = Schema.Struct({
  role: Schema.Literal("tool"),
  content: Schema.String,
  tool_call_id: Schema.String
})

/**
 * A chat message, discriminated by `role`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ChatMessage = Schema.Union(SystemMessage, UserMessage, AssistantMessage, ToolMessage)

/**
 * @since 0.1.0
 * @category models
 */
export type ChatMessage = typeof ChatMessage.Type

// ---------------------------------------------------------------------------------------------------------
// tools and documents
// ---------------------------------------------------------------------------------------------------------

/**
 * The JSON Schema of a function's parameters. Each property has a `type` (`string`, `integer`, `float`,
 * `number`, `array`, `boolean`, `object`, or an `enum`) and a description.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FunctionParameters = Schema.Struct(
  {
    type: optional(Schema.Literal(...functionParametersTypes)),
    properties: optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
    required: optional(Schema.Array(Schema.String))
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)

/**
 * A function the model may call. Only `type: "function"` exists; every function is described by the caller.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ChatTool = Schema.Struct({
  type: Schema.Literal(...chatToolTypes),
  function: Schema.Struct({
    name: Schema.NonEmptyString.annotations({ message: () => "a function needs a non-empty name" }),
    description: Schema.String.annotations({
      message: () => "describe what the function does, returns and its limitations"
    }),
    parameters: optional(FunctionParameters)
  })
})

/**
 * @since 0.1.0
 * @category models
 */
export type ChatTool = typeof ChatTool.Type

/**
 * A metadata entry of a document in the list shape, such as `{ key: "author", value: "…" }`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const DocumentMetadata = Schema.Struct({
  key: Schema.String,
  value: Schema.String
})

/**
 * The metadata of a document as the real service defines it and as it is sent: a `{ key: value }` map.
 *
 * @since 0.1.0
 * @category schemas
 */
export const DocumentMetadataMap = Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
  title: "a {key: value} map"
})

/**
 * @since 0.1.0
 * @category models
 */
export type DocumentMetadataMap = typeof DocumentMetadataMap.Type

/** The list shape: each key at most once, since the map it becomes holds one value per key. */
const DocumentMetadataList = withWholeChecks(Schema.Array(DocumentMetadata), (input) => {
  if (!Array.isArray(input)) return []
  const issues: Array<Schema.FilterIssue> = []
  const seen = new Set<string>()
  input.forEach((entry: unknown, index) => {
    if (!isRecord(entry) || typeof entry.key !== "string") return
    if (seen.has(entry.key)) {
      issues.push({
        path: [index, "key"],
        message: `metadata key ${showValue(entry.key)} appears more than once: give each key one value`
      })
    }
    seen.add(entry.key)
  })
  return issues
}, { title: "a list of {key, value} entries" })

/**
 * A document's metadata, given either as a `[{ key, value }]` list or as a `{ key: value }` map, and
 * decoded (and sent) as the map. A list that repeats a key is refused.
 *
 * @since 0.1.0
 * @category schemas
 */
export const DocumentMetadataField = Schema.transform(
  Schema.Union(DocumentMetadataList, DocumentMetadataMap),
  Schema.typeSchema(DocumentMetadataMap),
  {
    strict: true,
    decode: (metadata): DocumentMetadataMap =>
      Array.isArray(metadata)
        ? Object.fromEntries((metadata as ReadonlyArray<typeof DocumentMetadata.Type>).map((e) => [e.key, e.value]))
        : metadata as DocumentMetadataMap,
    encode: (metadata) => metadata
  }
)

/**
 * A document the model may draw on.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Document = Schema.Struct({
  id: optional(Schema.String),
  content: Schema.String,
  metadata: optional(DocumentMetadataField)
})

/**
 * `{ type: "json_object" }` turns on JSON mode.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ResponseFormat = Schema.Struct({
  type: Schema.Literal(...responseFormatTypes)
})

// ---------------------------------------------------------------------------------------------------------
// the request
// ---------------------------------------------------------------------------------------------------------

const inRange = ({ max, min }: Bounds, what: string) =>
  Schema.Number.pipe(
    Schema.filter((value) => (value >= min && value <= max) || `${what} must be between ${min} and ${max}`)
  )

const intInRange = ({ max, min }: Bounds, what: string) =>
  Schema.Number.pipe(
    Schema.filter((value) =>
      (Number.isInteger(value) && value >= min && value <= max) || `${what} must be an integer from ${min} to ${max}`
    )
  )

const StopSequence = Schema.String.pipe(
  Schema.filter((value) =>
    value.length <= maxStopLength || `a stop sequence is at most ${maxStopLength} characters (got ${value.length})`
  )
)

const mockDelay = (what: string) =>
  Schema.Number.pipe(
    Schema.filter((value) => isMockDelay(value) || `${what} must be a number of seconds, 0 or more`)
  )

/**
 * A request for a mock answer, for testing a client's handling of time: the service waits
 * `response_delay_seconds` (1 when left out) before it answers, and
 * `stream_response_delay_between_deltas_seconds` (0.1 when left out) between the events of a stream; each a
 * number of seconds, 0 or more.
 *
 * @since 1.1.0
 * @category schemas
 */
export const MockResponseConfig = Schema.Struct({
  response_delay_seconds: optional(mockDelay("response_delay_seconds")),
  stream_response_delay_between_deltas_seconds: optional(mockDelay("stream_response_delay_between_deltas_seconds"))
})

/**
 * The fields of a chat request, each checked on its own.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ChatRequestFields = Schema.Struct({
  model: Schema.NonEmptyString.annotations({ message: () => "name a model, such as fpmodel-mini" }),
  messages: Schema.Array(ChatMessage).pipe(
    Schema.filter((messages) => messages.length > 0 || "send at least one message")
  ),
  tools: optional(Schema.Array(ChatTool)),
  documents: optional(Schema.Array(Document)),
  response_format: optional(ResponseFormat),
  max_tokens: optional(intInRange(maxTokensBounds, "max_tokens")),
  temperature: optional(inRange(temperatureBounds, "temperature")),
  top_p: optional(inRange(topPBounds, "top_p")),
  stop: optional(Schema.Union(StopSequence, Schema.Array(StopSequence))),
  n: optional(intInRange(choicesBounds, "n")),
  stream: optional(Schema.Boolean),
  mock_response: optional(MockResponseConfig)
})

/**
 * The rules that relate several fields, each reported at the field to change. They read the raw request,
 * looking only at fields of the right kind, so they are reported together with any field-level breach.
 */
const chatCrossFieldRules = (input: unknown): ReadonlyArray<Schema.FilterIssue> => {
  if (!isRecord(input)) return []
  const issues: Array<Schema.FilterIssue> = []
  const n = typeof input.n === "number" ? input.n : 1
  const streamed = input.stream === true
  if (n > 1 && input.temperature === 0) {
    issues.push({
      path: ["temperature"],
      message: "temperature 0 with n > 1 would give n identical answers: raise temperature or set n to 1"
    })
  }
  if (streamed && n !== 1) {
    issues.push({ path: ["n"], message: "a streamed completion has exactly one choice: set n to 1" })
  }
  if (streamed && Array.isArray(input.tools) && input.tools.length > 0) {
    issues.push({ path: ["stream"], message: "tools cannot be used with a streamed completion: set stream to false" })
  }
  if (Array.isArray(input.messages)) {
    const callIds = new Set<string>()
    input.messages.forEach((message: unknown, index) => {
      if (!isRecord(message)) return
      if (message.role === "assistant" && Array.isArray(message.tool_calls)) {
        for (const call of message.tool_calls as ReadonlyArray<unknown>) {
          if (isRecord(call) && typeof call.id === "string") callIds.add(call.id)
        }
      } else if (
        message.role === "tool" && typeof message.tool_call_id === "string" && !callIds.has(message.tool_call_id)
      ) {
        issues.push({
          path: ["messages", index, "tool_call_id"],
          message: `no earlier assistant message has a tool call with id ${
            showValue(message.tool_call_id)
          }: a tool message must answer one`
        })
      }
    })
  }
  return issues
}

/**
 * A chat completion request, with every rule of the interface. The rules that relate several fields are
 * checked even when a field breaks its own rule, so one failure lists every problem.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ChatRequest = withWholeChecks(ChatRequestFields, chatCrossFieldRules, { identifier: "ChatRequest" })

/**
 * A chat request as callers write it. `model` offers the interface's chat models for completion and takes
 * any other id as well.
 *
 * @since 0.1.0
 * @category models
 */
export type ChatRequest = Omit<typeof ChatRequest.Encoded, "model"> & {
  readonly model: ChatModel | (string & {})
}

// ---------------------------------------------------------------------------------------------------------
// the response
// ---------------------------------------------------------------------------------------------------------

/*
 * Every object of an answer keeps the fields the schemas do not name, as the service sent them.
 */

/**
 * Token counts of a completion.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Usage = openStruct({
  prompt_tokens: Schema.Number,
  completion_tokens: Schema.Number,
  total_tokens: Schema.Number
})

/**
 * @since 0.1.0
 * @category models
 */
export interface Usage extends Schema.Schema.Type<typeof Usage> {}

/**
 * A tool call made by the model; `arguments` is a JSON string.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ToolCall = openStruct({
  id: Schema.String,
  type: Schema.optionalWith(Schema.String, { default: () => "function" }),
  function: openStruct({
    name: Schema.String,
    arguments: Schema.String
  })
})

/**
 * @since 0.1.0
 * @category models
 */
export interface ToolCall extends Schema.Schema.Type<typeof ToolCall> {}

/**
 * The generated message of one choice; `reasoning_content` is the model's reasoning, when it shows it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompletionMessage = openStruct({
  role: Schema.optionalWith(Schema.Literal("assistant"), { default: () => "assistant" as const }),
  content: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  tool_calls: Schema.optionalWith(Schema.NullOr(Schema.Array(ToolCall)), { default: () => null }),
  reasoning_content: Schema.optional(Schema.NullOr(Schema.String))
})

/**
 * Why generation stopped: `stop`, `length` (max_tokens reached), `tool_calls`, or a newer reason.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FinishReason = Schema.Union(Schema.Literal(...finishReasons), Schema.String)

/**
 * One of the likeliest tokens at a position.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TopLogprob = openStruct({
  token: Schema.String,
  logprob: Schema.Number
})

/**
 * A generated token with its log probability, and the likeliest tokens at its position.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenLogprob = openStruct({
  token: Schema.String,
  logprob: Schema.Number,
  top_logprobs: Schema.optional(Schema.NullOr(Schema.Array(TopLogprob)))
})

/**
 * The log probabilities of a choice's tokens.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Logprobs = openStruct({
  content: Schema.NullOr(Schema.Array(TokenLogprob))
})

/**
 * @since 0.1.0
 * @category schemas
 */
export const ChatCompletionChoice = openStruct({
  index: Schema.Number,
  message: CompletionMessage,
  logprobs: Schema.optionalWith(Schema.NullOr(Logprobs), { default: () => null }),
  finish_reason: Schema.optionalWith(Schema.NullOr(FinishReason), { default: () => null })
})

/**
 * What the service says about an answer beyond its content, as it sends it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompletionMeta = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/**
 * A chat completion.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ChatCompletion = openStruct({
  id: Schema.String,
  choices: Schema.Array(ChatCompletionChoice),
  usage: Usage,
  meta: Schema.optional(Schema.NullOr(CompletionMeta))
})

/**
 * @since 0.1.0
 * @category models
 */
export interface ChatCompletion extends Schema.Schema.Type<typeof ChatCompletion> {}

// ---------------------------------------------------------------------------------------------------------
// the stream
// ---------------------------------------------------------------------------------------------------------

/**
 * A piece of a tool call in a stream: the first piece of a call carries `id`, `type` and `function.name`;
 * later pieces carry more of `function.arguments`. Pieces belong together by `index`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ToolCallDelta = openStruct({
  index: Schema.Number,
  id: Schema.optional(Schema.String),
  type: Schema.optional(Schema.String),
  function: Schema.optional(openStruct({
    name: Schema.optional(Schema.String),
    arguments: Schema.optional(Schema.String)
  }))
})

/**
 * The change a chunk brings to one choice: the role (first chunk), more of the model's reasoning
 * (`reasoning_content`), more content, or pieces of tool calls.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ChatDelta = openStruct({
  role: Schema.optional(Schema.String),
  content: Schema.optional(Schema.NullOr(Schema.String)),
  reasoning_content: Schema.optional(Schema.NullOr(Schema.String)),
  tool_calls: Schema.optional(Schema.NullOr(Schema.Array(ToolCallDelta)))
})

/**
 * @since 0.1.0
 * @category models
 */
export interface ChatDelta extends Schema.Schema.Type<typeof ChatDelta> {}

/**
 * @since 0.1.0
 * @category schemas
 */
export const ChatCompletionChunkChoice = openStruct({
  index: Schema.Number,
  delta: ChatDelta,
  logprobs: Schema.optional(Schema.NullOr(Logprobs)),
  finish_reason: Schema.optionalWith(Schema.NullOr(FinishReason), { default: () => null })
})

/**
 * One event of a streamed completion. Only the last chunk carries `usage`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ChatCompletionChunk = openStruct({
  id: Schema.String,
  choices: Schema.Array(ChatCompletionChunkChoice),
  usage: Schema.optionalWith(Schema.NullOr(Usage), { default: () => null }),
  meta: Schema.optional(Schema.NullOr(CompletionMeta))
})

/**
 * @since 0.1.0
 * @category models
 */
export interface ChatCompletionChunk extends Schema.Schema.Type<typeof ChatCompletionChunk> {}
