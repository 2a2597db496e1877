/**
 * The issues a rejected request or answer is reported with: a path a person reads (`messages[2].tool_call_id`),
 * a message, and pydantic's kind; each line's schema walk produces them, this module says them.
 */
import * as CodePoints from "../text/codePoints.js"

/** One problem with a request: where it is (`messages[2].tool_call_id`) and what to do about it. */
export interface Issue {
  readonly path: string
  readonly message: string
}

/**
 * What kind of problem an issue is, in pydantic's words: a required field is `missing`, a value of the
 * wrong kind is `string_type`, `list_type`, ..., a value outside the allowed ones `literal_error`, and a
 * broken rule `value_error`.
 */
export type IssueType =
  | "missing"
  | "extra_forbidden"
  | "string_type"
  | "float_type"
  | "bool_type"
  | "list_type"
  | "dict_type"
  | "literal_error"
  | "union_type"
  | "value_error"

/** One problem with its path as segments (`["messages", 2, "tool_call_id"]`) and its kind. */
export interface LocatedIssue {
  readonly loc: ReadonlyArray<string | number>
  readonly message: string
  readonly type: IssueType
}

/** Renders `["messages", 2, "tool_call_id"]` as `messages[2].tool_call_id`; the root is `(root)`. */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string => {
  let out = ""
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`
    else out += out === "" ? String(segment) : `.${String(segment)}`
  }
  return out === "" ? "(root)" : out
}

/** Longest rendering of a caller's value inside a message: a 64K stop sequence must not fill the log. */
const maxShownLength = 60

/** Arrays and objects are named, never echoed: a 10,000-item array must not come back in the answer. */
const render = (value: unknown): string => {
  if (typeof value === "string") return JSON.stringify(value)
  if (typeof value === "function") return "a function"
  if (Array.isArray(value)) return value.length === 0 ? "an empty array" : `an array of ${value.length} items`
  if (typeof value === "object" && value !== null) return "an object"
  return String(value)
}

/** A value as a message shows it: a scalar as JSON, cut short when long; an array or object by its kind. */
export const showValue = (value: unknown): string => CodePoints.clip(render(value), maxShownLength)

/** The issues found, one per problem: the same path and message are reported once. */
export const uniqueIssues = (found: ReadonlyArray<LocatedIssue>): ReadonlyArray<LocatedIssue> => {
  const seen = new Set<string>()
  return found.filter((item) => {
    const key = `${JSON.stringify(item.loc)}\u0000${item.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Located issues with their paths rendered for a person. */
export const pathIssues = (located: ReadonlyArray<LocatedIssue>): ReadonlyArray<Issue> =>
  located.map(({ loc, message }) => ({ path: formatPath(loc), message }))

/** At most this many issues are named in the reason of a `DecodeError`. */
const maxReasonIssues = 8

/** The reason of a `DecodeError` for an answer that does not match its schema: at most 8 `path: message`. */
export const decodeReason = (issues: ReadonlyArray<Issue>): string => {
  const shown = issues.slice(0, maxReasonIssues).map(({ message, path }) => `${path}: ${message}`)
  const more = issues.length - shown.length
  return `the answer does not match the interface (${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""})`
}

/** The part of `value` at `path`, or `undefined` where the path leaves the objects. */
export const valueAt = (value: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  let current = value
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}
