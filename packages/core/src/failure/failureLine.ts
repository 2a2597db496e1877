/**
 * A failure as the one line a program prints for it on a terminal: `AuthError: 401 Forbidden ... (request id
 * ...). Check the API key ...`. The error's tag names what failed and its message says what to do next; a
 * message of several lines (a `ValidationError` lists its issues one per line) is joined into one, and the
 * control characters a terminal would obey (an error's detail comes from the service) are shown as escapes.
 *
 * @since 0.1.0
 */
import { visibleControls } from "../text/visibleControls.js"

/** Every line break a terminal honours: CR LF, LF, CR, and the Unicode line and paragraph separators. */
const lineBreaks = /\r\n|[\n\r\u2028\u2029]/u

/**
 * `text` on one line: each line trimmed, blank ones dropped, a list item's leading `- ` removed (and the space after it), and the lines
 * joined with `; ` (with a space alone after a line ending in `:`, which introduces what follows).
 */
const joinLines = (text: string): string => {
  let joined = ""
  for (const line of text.split(lineBreaks)) {
    const part = line.trim().replace(/^- /u, "").trimStart()
    if (part === "") continue
    joined = joined === "" ? part : `${joined}${joined.endsWith(":") ? " " : "; "}${part}`
  }
  return joined
}

const isRecord = (value: unknown): value is Record<PropertyKey, unknown> => typeof value === "object" && value !== null

/** What a failure says: a tagged error's `Tag: message`, another's message, or the value as text. */
const saying = (failure: unknown): string => {
  if (typeof failure === "string") return failure
  if (isRecord(failure)) {
    const message = failure["message"]
    if (typeof message === "string" && message.trim() !== "") {
      const tag = failure["_tag"]
      return typeof tag === "string" && tag !== "" ? `${tag}: ${message}` : message
    }
  }
  try {
    return String(failure)
  } catch {
    // an object without a prototype, or whose toString throws
    return Object.prototype.toString.call(failure)
  }
}

/**
 * The one line to print for `failure` (an error, a string, any value): a tagged error's `Tag: message`, an
 * error's message, otherwise the value as text; joined into one line, with its controls made visible. It
 * holds only what the failure says (the errors of the SDK never hold the API key).
 *
 * @since 0.1.0
 * @category text
 */
export const failureLine = (failure: unknown): string => visibleControls(joinLines(saying(failure)))
