/**
 * Checking a request against its schema before anything is sent.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { loneSurrogateAt } from "studio-effect-core/text/wellFormed"
import type { Accept } from "studio-effect-core/validate/accept"
import { ValidationError, ValidationIssue } from "../../StudioError.js"
import { fromParseError } from "./issues.js"

const parseOptions = { errors: "all", onExcessProperty: "preserve" } as const

/** Why a request holding a value that cannot be read as text is refused. */
const unreadableValue =
  "the request holds an object that cannot be read as text (its toString and valueOf are not functions): send plain data"

/** Checks the input of a call against a request schema, naming the operation in its error. */
export type RequestValidator<A> = (operation: string, input: unknown) => Effect.Effect<A, ValidationError>

/**
 * The check of a request schema, made once per operation: a usual request is decoded by `accept`, the
 * schema's fast path (see each module of the core's `validate/`), to the same value; any other by the
 * schema, reporting every broken rule with its path as one `ValidationError`. Unknown fields are kept, so
 * fields the service adds later can be sent.
 */
export const requestValidator = <A, I>(schema: Schema.Schema<A, I>, accept?: Accept<A>): RequestValidator<A> => {
  const decode = Schema.decodeUnknownEither(schema, parseOptions)
  return (operation, input) => {
    const accepted = accept?.(input)
    if (accepted !== undefined) return Effect.succeed(accepted)
    let result: ReturnType<typeof decode>
    try {
      result = decode(input)
    } catch {
      // Effect 3's schema reads a union's tag with `String(value)`, which throws for an object whose
      // `toString` and `valueOf` are not functions (or that has neither): such a request is refused, not a defect
      return Effect.fail(
        new ValidationError({
          operation,
          source: "client",
          issues: [new ValidationIssue({ path: "", message: unreadableValue })]
        })
      )
    }
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
}

/** Decodes `input` with `schema` once, as `requestValidator` does. */
export const validateRequest = <A, I>(
  operation: string,
  schema: Schema.Schema<A, I>,
  input: unknown
): Effect.Effect<A, ValidationError> => requestValidator(schema)(operation, input)

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
