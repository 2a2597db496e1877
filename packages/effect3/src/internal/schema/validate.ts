/**
 * Checking a request against its schema before anything is sent.
 */
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { loneSurrogateAt } from "studio-effect-core/text/wellFormed"
import type { Accept } from "studio-effect-core/validate/accept"
import { acceptAssistantRunRequest, acceptCreateAssistantRequest } from "studio-effect-core/validate/assistantRequests"
import { acceptChatRequest } from "studio-effect-core/validate/chatRequest"
import { acceptRunRequest } from "studio-effect-core/validate/runRequest"
import { AssistantRunRequest, CreateAssistantRequest } from "../../AssistantSchema.js"
import { ChatRequest } from "../../ChatSchema.js"
import { RunRequest } from "../../MaestroSchema.js"
import { ValidationError, ValidationIssue } from "../../StudioError.js"
import { fromParseError } from "./issues.js"

const parseOptions = { errors: "all", onExcessProperty: "preserve" } as const

/**
 * The fast paths of the request schemas: each gives the decoded value of a usual request, many times faster
 * than the schema, or `undefined` for the schema to decide (see each module).
 */
const fastPaths: ReadonlyMap<Schema.Schema.Any, Accept<unknown>> = new Map<Schema.Schema.Any, Accept<unknown>>([
  [ChatRequest, acceptChatRequest],
  [RunRequest, acceptRunRequest],
  [AssistantRunRequest, acceptAssistantRunRequest],
  [CreateAssistantRequest, acceptCreateAssistantRequest]
])

type Validator = (input: unknown) => Either.Either<any, ParseResult.ParseError>

const validators = new WeakMap<Schema.Schema.Any, Validator>()

/** The validator of a request schema, compiled once per schema. */
const validatorOf = (schema: Schema.Schema.Any): Validator => {
  let validator = validators.get(schema)
  if (validator === undefined) {
    validator = Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown>, parseOptions)
    validators.set(schema, validator)
  }
  return validator
}

/**
 * Decodes `input` with `schema`, reporting every broken rule with its path as one `ValidationError`.
 * Unknown fields are kept, so fields the service adds later can be sent. A usual request is decoded by the
 * schema's fast path, to the same value.
 */
export const validateRequest = <A, I>(
  operation: string,
  schema: Schema.Schema<A, I>,
  input: unknown
): Effect.Effect<A, ValidationError> => {
  const accepted = fastPaths.get(schema)?.(input)
  if (accepted !== undefined) return Effect.succeed(accepted as A)
  const result = validatorOf(schema)(input) as Either.Either<A, ParseResult.ParseError>
  return result._tag === "Right"
    ? Effect.succeed(result.right)
    : Effect.fail(
      new ValidationError({
        operation,
        source: "client",
        issues: fromParseError(result.left).map((issue) => new ValidationIssue(issue))
      })
    )
}

/**
 * What is wrong with an identifier as a URL path segment, or `undefined`. An empty id, `.` or `..` is
 * refused (URLs resolve them to another resource, `/runs/` or the parent, whatever the encoding), and so is
 * one that is not well-formed text (a lone surrogate has no UTF-8 form: it cannot be percent-encoded).
 */
const idProblem = (field: string, id: unknown): string | undefined => {
  if (typeof id !== "string" || id === "" || id === "." || id === "..") {
    return `${field} must be a non-empty string other than "." and ".."`
  }
  const at = loneSurrogateAt(id)
  return at === -1 ? undefined : `${field} must be well-formed text: it holds a lone surrogate ` +
    `(U+${id.charCodeAt(at).toString(16).toUpperCase()}) at offset ${at}, which has no UTF-8 form`
}

/**
 * An identifier as a URL path segment, encoded; a refused one (see `idProblem`) fails with
 * `ValidationError`, and nothing is sent.
 */
export const pathSegment = (
  operation: string,
  field: string,
  id: string
): Effect.Effect<string, ValidationError> => {
  const problem = idProblem(field, id)
  return problem === undefined
    ? Effect.succeed(encodeURIComponent(id))
    : Effect.fail(
      new ValidationError({
        operation,
        source: "client",
        issues: [new ValidationIssue({ path: field, message: problem })]
      })
    )
}
