/**
 * The service's answers on the wire: JSON with status 200, FastAPI-shaped error bodies, and request
 * validation with the `loc` of every broken rule.
 */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { locatedIssues } from "../internal/schema/issues.js"

/** One entry of a FastAPI 422 body. */
export interface FastApiIssue {
  readonly loc: ReadonlyArray<string | number>
  readonly msg: string
  readonly type: string
}

/** The detail 401 answers carry, word for word as the service says it. */
export const unauthorizedDetail = "Forbidden: Bad or missing API token."

/** A JSON answer from its text; every success of the service is 200. */
export const jsonText = (text: string, status = 200, headers: Readonly<Record<string, string>> = {}) =>
  HttpServerResponse.text(text, { status, contentType: "application/json", headers })

/** A JSON answer; every success of the service is 200. */
export const json = (body: unknown, status = 200, headers: Readonly<Record<string, string>> = {}) =>
  jsonText(JSON.stringify(body), status, headers)

/** `{"detail": "..."}` with a status. */
export const detail = (status: number, message: string, headers: Readonly<Record<string, string>> = {}) =>
  json({ detail: message }, status, headers)

/** A 422 with FastAPI's `{"detail": [{loc, msg, type}]}`. */
export const unprocessable = (issues: ReadonlyArray<FastApiIssue>) => json({ detail: issues }, 422)

/** A 404 for an id the service does not hold. */
export const notFound = (what: string, id: string) => detail(404, `${what} ${id} not found`)

/** At most this many issues are reported, so a body with thousands of broken items gets a short answer. */
export const maxIssues = 100

/** The message of an issue is cut here; messages show a caller's values only cut short, so this is a backstop. */
const maxMessageLength = 500

const clip = (message: string): string =>
  message.length <= maxMessageLength ? message : `${message.slice(0, maxMessageLength)}...`

/**
 * Every issue of a parse failure as FastAPI issues under `prefix` (`["body"]`): one entry per problem,
 * with the SDK's own message (pydantic's `Field required` for a missing field), at most `maxIssues`.
 */
export const issuesOf = (
  error: Schema.SchemaError,
  prefix: ReadonlyArray<string | number> = ["body"]
): ReadonlyArray<FastApiIssue> =>
  locatedIssues(error.issue).slice(0, maxIssues).map((issue) => ({
    loc: [...prefix, ...issue.loc],
    msg: issue.type === "missing" ? "Field required" : clip(issue.message),
    type: issue.type
  }))

/** Why a body could not be used: it is not JSON, or it breaks the schema. */
export class InvalidBody {
  readonly _tag = "InvalidBody"
  constructor(readonly issues: ReadonlyArray<FastApiIssue>) {}
}

/** Parses a body as JSON, as FastAPI would: a missing body and malformed JSON are 422s at `body`. */
export const parseJson = (text: string): Result.Result<unknown, InvalidBody> => {
  if (text.trim() === "") {
    return Result.fail(new InvalidBody([{ loc: ["body"], msg: "Field required", type: "missing" }]))
  }
  try {
    return Result.succeed(JSON.parse(text) as unknown)
  } catch (cause) {
    const position = /position (\d+)/.exec(String(cause))
    return Result.fail(
      new InvalidBody([{
        loc: ["body", position === null ? 0 : Number(position[1])],
        msg: "JSON decode error",
        type: "json_invalid"
      }])
    )
  }
}

/** The default limit of nesting of a JSON body: deeper bodies are refused before they are decoded. */
export const defaultMaxJsonDepth = 64

/**
 * Bodies with more values than this are decoded up to their first issue only: reporting every issue of
 * 100,000 broken items would cost seconds and megabytes.
 */
export const maxValuesForEveryIssue = 10_000

/** The size of a parsed JSON value: whether it nests deeper than a limit, and how many values it holds. */
export interface JsonShape {
  readonly tooDeep: boolean
  readonly values: number
}

/**
 * Measures a parsed JSON value with its own stack, so that a body nested 100,000 levels deep is measured
 * without recursion; it stops at the first value deeper than `maxDepth`.
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

/** The 422 issue of a body nested too deeply. */
export const tooDeepIssue = (limit: number): FastApiIssue => ({
  loc: ["body"],
  msg: `JSON nested more than ${limit} levels deep`,
  type: "value_error"
})

/** Decodes a parsed body with a schema of the SDK, reporting every issue (or only the first). */
export const decodeBody = <A>(
  schema: Schema.ConstraintDecoder<A>,
  body: unknown,
  everyIssue = true
): Effect.Effect<A, InvalidBody> =>
  Effect.mapError(
    Schema.decodeUnknownEffect(schema)(body, {
      errors: everyIssue ? "all" : "first",
      onExcessProperty: "ignore",
      reportInput: true
    }),
    (error) => new InvalidBody(issuesOf(error))
  )
