/**
 * Why the core's fast path (`acceptChatRequest`) refuses a chat request the provider built, field by field,
 * for the message of the `InvalidArgumentError` thrown before anything is sent. The paths name the wire
 * field and the AI SDK's setting it comes from (`max_tokens (maxOutputTokens)`).
 */
import type { Issue } from "studio-effect-core/validate/issues"
import { showValue } from "studio-effect-core/validate/issues"
import {
  type Bounds,
  maxStopLength,
  maxTokensBounds,
  temperatureBounds,
  topPBounds
} from "studio-effect-core/wire/chat"

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const range = ({ max, min }: Bounds): string => `from ${min} to ${max}`

const numberIssue = (
  path: string,
  value: unknown,
  bounds: Bounds,
  integer: boolean
): Array<Issue> =>
  value === undefined ||
    (typeof value === "number" && value >= bounds.min && value <= bounds.max &&
      (!integer || Number.isInteger(value)))
    ? []
    : [{ path, message: `must be ${integer ? "an integer" : "a number"} ${range(bounds)}, not ${showValue(value)}` }]

const documentKeys = new Set(["id", "content", "metadata"])

/** The issues of `providerOptions.studio.documents`. */
const documentIssues = (documents: unknown): Array<Issue> => {
  const base = "providerOptions.studio.documents"
  if (documents === undefined) return []
  if (!Array.isArray(documents)) {
    return [{ path: base, message: `must be a list of documents, not ${showValue(documents)}` }]
  }
  return documents.flatMap((document, i): Array<Issue> => {
    const path = `${base}[${i}]`
    if (!isRecord(document)) {
      return [{ path, message: `must be { content, id?, metadata? }, not ${showValue(document)}` }]
    }
    const issues: Array<Issue> = []
    for (const key of Object.keys(document)) {
      if (!documentKeys.has(key)) issues.push({ path: `${path}.${key}`, message: "is not a field of a document" })
    }
    if (typeof document.content !== "string") {
      issues.push({ path: `${path}.content`, message: `must be text, not ${showValue(document.content)}` })
    }
    if (document.id !== undefined && typeof document.id !== "string") {
      issues.push({ path: `${path}.id`, message: `must be text, not ${showValue(document.id)}` })
    }
    const metadata = document.metadata
    if (metadata !== undefined) {
      const entries = Array.isArray(metadata)
        ? metadata.map((entry) => isRecord(entry) ? [entry.key, entry.value] : [undefined, undefined])
        : isRecord(metadata)
        ? Object.entries(metadata)
        : undefined
      const keys = new Set<unknown>()
      const valid = entries !== undefined && entries.every(([key, value]) => {
        const fresh = typeof key === "string" && key !== "__proto__" && !keys.has(key)
        keys.add(key)
        return fresh && typeof value === "string"
      })
      if (!valid) {
        issues.push({
          path: `${path}.metadata`,
          message: "must map each key to text once: { key: \"value\" } or [{ key, value }]"
        })
      }
    }
    return issues
  })
}

/** The tool messages that answer no earlier tool call. */
const toolResultIssues = (messages: ReadonlyArray<unknown>): Array<Issue> => {
  const calls = new Set<unknown>()
  const issues: Array<Issue> = []
  messages.forEach((message, i) => {
    if (!isRecord(message)) return
    if (message.role === "assistant" && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) if (isRecord(call)) calls.add(call.id)
    } else if (message.role === "tool" && !calls.has(message.tool_call_id)) {
      issues.push({
        path: `prompt[${i}]`,
        message: `the tool result ${showValue(message.tool_call_id)} answers no tool call of an earlier message`
      })
    }
  })
  return issues
}

/** The tools' issues: a name and a description each, parameters of an object schema. */
const toolIssues = (tools: unknown): Array<Issue> =>
  !Array.isArray(tools) ? [] : tools.flatMap((tool, i): Array<Issue> => {
    const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : {}
    const path = `tools[${i}]`
    const issues: Array<Issue> = []
    if (typeof fn.name !== "string" || fn.name === "") {
      issues.push({ path: `${path}.name`, message: "must be a non-empty name" })
    }
    const parameters = fn.parameters
    if (parameters !== undefined) {
      if (!isRecord(parameters)) {
        issues.push({ path: `${path}.inputSchema`, message: "must be a JSON Schema object" })
      } else {
        if (parameters.type !== undefined && parameters.type !== "object") {
          issues.push({
            path: `${path}.inputSchema.type`,
            message: `must be "object", not ${showValue(parameters.type)}`
          })
        }
        if (parameters.properties !== undefined && !isRecord(parameters.properties)) {
          issues.push({ path: `${path}.inputSchema.properties`, message: "must be an object" })
        }
        if (
          parameters.required !== undefined &&
          !(Array.isArray(parameters.required) && parameters.required.every((name) => typeof name === "string"))
        ) {
          issues.push({ path: `${path}.inputSchema.required`, message: "must be a list of names" })
        }
      }
    }
    return issues
  })

/**
 * The issues of a chat request the core refuses. It names every field it finds at fault; should none be
 * (a rule it does not word), the request as a whole.
 */
export const requestIssues = (request: Readonly<Record<string, unknown>>): ReadonlyArray<Issue> => {
  const messages = Array.isArray(request.messages) ? request.messages : []
  const stop = request.stop
  const issues: Array<Issue> = [
    ...(typeof request.model === "string" && request.model !== ""
      ? []
      : [{ path: "modelId", message: "must be a model's id, such as \"fpmodel-mini\"" }]),
    ...(messages.length > 0
      ? []
      : [{ path: "prompt", message: "must hold at least one message the service can read (text or tool calls)" }]),
    ...toolResultIssues(messages),
    ...numberIssue("max_tokens (maxOutputTokens)", request.max_tokens, maxTokensBounds, true),
    ...numberIssue("temperature", request.temperature, temperatureBounds, false),
    ...numberIssue("top_p (topP)", request.top_p, topPBounds, false),
    ...(Array.isArray(stop) ? stop : []).flatMap((sequence, i): Array<Issue> =>
      typeof sequence === "string" && sequence.length <= maxStopLength
        ? []
        : [{ path: `stopSequences[${i}]`, message: `must be text of at most ${maxStopLength} characters` }]
    ),
    ...toolIssues(request.tools),
    ...documentIssues(request.documents)
  ]
  return issues.length > 0
    ? issues
    : [{ path: "(root)", message: "the request breaks a rule of the Studio chat interface" }]
}
