/**
 * The service's answers on the wire: JSON with status 200, FastAPI-shaped error bodies (worded by
 * `studio-effect-core/reference/fastApi`), and request validation with the `loc` of every broken rule.
 */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Schema from "effect/Schema"
import { type FastApiIssue, fastApiIssues } from "studio-effect-core/reference/fastApi"
import { locatedIssues } from "../internal/schema/issues.js"

export type { FastApiIssue }

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

/** Every issue of a parse failure as FastAPI issues under `prefix` (`["body"]`), as `fastApiIssues` words them. */
export const issuesOf = (
  error: Schema.SchemaError,
  prefix: ReadonlyArray<string | number> = ["body"]
): ReadonlyArray<FastApiIssue> => fastApiIssues(locatedIssues(error.issue), prefix)

/** Why a body could not be used: it is not JSON, or it breaks the schema. */
export class InvalidBody {
  readonly _tag = "InvalidBody"
  constructor(readonly issues: ReadonlyArray<FastApiIssue>) {}
}

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
