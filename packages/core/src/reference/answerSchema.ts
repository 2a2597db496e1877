/**
 * The JSON Schema of a structured answer, as a system message gives it after "JSON Schema:" (as
 * `studio-effect/ai` writes for `generateObject`). The schema is text inside a message, so the body's own
 * nesting limit never sees it: it is read here within a fixed depth, and a deeper one is refused as a
 * request issue instead of being followed (copying a `const` nested 100,000 levels deep would exhaust the
 * stack).
 *
 * @since 0.1.0
 */
import type { ChatMessage, ChatRequest } from "../wire/chat.js"

/** Where a system message names the JSON Schema of a structured answer: the object that follows it. */
const marker = "JSON Schema:"

/**
 * The deepest nesting of arrays and objects read in such a schema: as deep as a request body may be.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxAnswerSchemaDepth = 64

/**
 * What the system messages say about the answer's schema: nothing, a schema, or one nested too deeply
 * (with the index of its message).
 *
 * @since 0.1.0
 * @category models
 */
export type AnswerSchema =
  | { readonly _tag: "None" }
  | { readonly _tag: "Schema"; readonly schema: object }
  | { readonly _tag: "TooDeep"; readonly message: number }

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `maxDepth`, measured with its own stack
 * (no recursion, whatever the depth) and stopping at the first value past the limit.
 *
 * @since 0.1.0
 * @category predicates
 */
export const nestsDeeperThan = (value: unknown, maxDepth: number): boolean => {
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (typeof node !== "object" || node === null) continue
    if (depth + 1 > maxDepth) return true
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1])
  }
  return false
}

/**
 * The schema a structured answer must follow, when a system message ends with one after "JSON Schema:";
 * the last such message wins. A message whose text there is not a JSON object is only text.
 *
 * @since 0.1.0
 * @category constructors
 */
export const answerSchemaOf = (messages: ReadonlyArray<ChatMessage>): AnswerSchema => {
  let found: AnswerSchema = { _tag: "None" }
  messages.forEach((message, index) => {
    if (message.role !== "system") return
    const at = message.content.lastIndexOf(marker)
    if (at === -1) return
    let parsed: unknown
    try {
      parsed = JSON.parse(message.content.slice(at + marker.length))
    } catch {
      return // not a schema after all: the message is only text
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return
    found = nestsDeeperThan(parsed, maxAnswerSchemaDepth)
      ? { _tag: "TooDeep", message: index }
      : { _tag: "Schema", schema: parsed }
  })
  return found
}

/**
 * The request issue (FastAPI's `{loc, msg, type}`) of a JSON-mode request whose answer schema nests too
 * deeply, at the content of its message; `undefined` when there is none.
 *
 * @since 0.1.0
 * @category validation
 */
export const answerSchemaIssue = (
  request: Pick<ChatRequest, "messages" | "response_format">
): { readonly loc: ReadonlyArray<string | number>; readonly msg: string; readonly type: string } | undefined => {
  if (request.response_format?.type !== "json_object") return undefined
  const schema = answerSchemaOf(request.messages)
  return schema._tag === "TooDeep"
    ? {
      loc: ["body", "messages", schema.message, "content"],
      msg: `The JSON Schema after "${marker}" is nested more than ${maxAnswerSchemaDepth} levels deep`,
      type: "value_error"
    }
    : undefined
}
