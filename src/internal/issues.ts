/**
 * Turning schema parse failures into the flat, path-addressed issues that `ValidationError` carries.
 */
import * as ParseResult from "effect/ParseResult"

/** One problem with a request: where it is (`messages[2].tool_call_id`) and what to do about it. */
export interface Issue {
  readonly path: string
  readonly message: string
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

/** Every issue of a parse failure, each with its path, de-duplicated. */
export const fromParseError = (error: ParseResult.ParseError): ReadonlyArray<Issue> => {
  const seen = new Set<string>()
  const issues: Array<Issue> = []
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const path = formatPath(issue.path)
    const key = `${path}\u0000${issue.message}`
    if (seen.has(key)) continue
    seen.add(key)
    issues.push({ path, message: issue.message })
  }
  return issues
}
