/**
 * The service's refusals as FastAPI words them: `{"detail": "..."}`, and the 422's
 * `{"detail": [{loc, msg, type}]}` for a body that is missing, not JSON, nested too deeply or breaking the
 * schema. A body is parsed and measured here; the schema's own decoding stays with each line.
 *
 * @since 0.1.0
 */
import type { LocatedIssue } from "../validate/issues.js"

/**
 * One entry of a FastAPI 422 body.
 *
 * @since 0.1.0
 * @category models
 */
export interface FastApiIssue {
  readonly loc: ReadonlyArray<string | number>
  readonly msg: string
  readonly type: string
}

/**
 * The detail 401 answers carry, word for word as the service says it.
 *
 * @since 0.1.0
 * @category details
 */
export const unauthorizedDetail = "Forbidden: Bad or missing API token."

/**
 * The detail of a 429.
 *
 * @since 0.1.0
 * @category details
 */
export const rateLimitedDetail = "Too many requests: rate limit exceeded."

/**
 * The key of an `Authorization: Bearer <key>` header; `undefined` for any other header or none.
 *
 * @since 0.1.0
 * @category headers
 */
export const bearerKey = (header: string | undefined): string | undefined => {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header)
  return match === null ? undefined : match[1]
}

/** At most this many issues are reported, so a body with thousands of broken items gets a short answer. */
const maxIssues = 100

/** The message of an issue is cut here; messages show a caller's values only cut short, so this is a backstop. */
const maxMessageLength = 500

const clip = (message: string): string =>
  message.length <= maxMessageLength ? message : `${message.slice(0, maxMessageLength)}...`

/**
 * Issues of a schema's decoding as FastAPI issues under `prefix` (`["body"]`): one entry per problem, with
 * the SDK's own message (pydantic's `Field required` for a missing field), at most 100.
 *
 * @since 0.1.0
 * @category issues
 */
export const fastApiIssues = (
  located: ReadonlyArray<LocatedIssue>,
  prefix: ReadonlyArray<string | number> = ["body"]
): ReadonlyArray<FastApiIssue> =>
  located.slice(0, maxIssues).map((issue) => ({
    loc: [...prefix, ...issue.loc],
    msg: issue.type === "missing" ? "Field required" : clip(issue.message),
    type: issue.type
  }))

/**
 * A 422 issue naming the models the service accepts, at `loc`.
 *
 * @since 0.1.0
 * @category issues
 */
export const modelIssue = (accepted: ReadonlyArray<string>, loc: ReadonlyArray<string | number>): FastApiIssue => ({
  loc,
  msg: `Input should be ${accepted.map((m) => `'${m}'`).join(", ")}`,
  type: "enum"
})

/**
 * The default limit of nesting of a JSON body: deeper bodies are refused before they are decoded.
 *
 * @since 0.1.0
 * @category limits
 */
export const defaultMaxJsonDepth = 64

/**
 * Bodies with more values than this are decoded up to their first issue only: reporting every issue of
 * 100,000 broken items would cost seconds and megabytes.
 */
const maxValuesForEveryIssue = 10_000

/**
 * The size of a parsed JSON value: whether it nests deeper than a limit, and how many values it holds.
 *
 * @since 0.1.0
 * @category models
 */
export interface JsonShape {
  readonly tooDeep: boolean
  readonly values: number
}

/**
 * Measures a parsed JSON value with its own stack, so that a body nested 100,000 levels deep is measured
 * without recursion; it stops at the first value deeper than `maxDepth`.
 *
 * @since 0.1.0
 * @category bodies
 */
export const shapeOf = (value: unknown, maxDepth: number): JsonShape => {
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  let values = 0
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    values++
    if (typeof node !== "object" || node === null) continue
    if (depth + 1 > maxDepth) return { tooDeep: true, values }
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1])
  }
  return { tooDeep: false, values }
}

/**
 * A body read as JSON, ready for its schema (with whether every issue of it is to be reported), or the
 * 422 issues of a body that never reaches the schema.
 *
 * @since 0.1.0
 * @category models
 */
export type JsonBody =
  | { readonly _tag: "Parsed"; readonly value: unknown; readonly everyIssue: boolean }
  | { readonly _tag: "Refused"; readonly issues: ReadonlyArray<FastApiIssue> }

/**
 * Parses a body as FastAPI would: a missing body and malformed JSON are 422s at `body`, and so is a body
 * nested deeper than `maxDepth`, refused before any decoding; a body of more than 10,000 values is decoded
 * up to its first issue only.
 *
 * @since 0.1.0
 * @category bodies
 */
export const parseJsonBody = (text: string, maxDepth: number): JsonBody => {
  if (text.trim() === "") {
    return { _tag: "Refused", issues: [{ loc: ["body"], msg: "Field required", type: "missing" }] }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (cause) {
    const position = /position (\d+)/.exec(String(cause))
    return {
      _tag: "Refused",
      issues: [{
        loc: ["body", position === null ? 0 : Number(position[1])],
        msg: "JSON decode error",
        type: "json_invalid"
      }]
    }
  }
  const shape = shapeOf(value, maxDepth)
  return shape.tooDeep
    ? {
      _tag: "Refused",
      issues: [{ loc: ["body"], msg: `JSON nested more than ${maxDepth} levels deep`, type: "value_error" }]
    }
    : { _tag: "Parsed", value, everyIssue: shape.values <= maxValuesForEveryIssue }
}
