/**
 * Checking a request against its schema before anything is sent.
 */
import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import * as SchemaParser from "effect/SchemaParser"
import { loneSurrogateAt } from "studio-effect-core/text/wellFormed"
import type { Accept } from "studio-effect-core/validate/accept"
import { ValidationError, ValidationIssue } from "../../StudioError.js"
import { fromSchemaIssue, type Issue } from "./issues.js"

/** Every issue is reported, each with the value that broke the rule. */
const parseOptions = { errors: "all", reportInput: true } as const

/** A field a struct does not list, taken as it is. */
const unknownField = new AST.IndexSignature(AST.string, AST.unknown)

const opened = new WeakMap<AST.AST, AST.AST>()

/**
 * `ast` with every struct open to the fields it does not list, which decode as they are given; every rule
 * is unchanged. A string, number, literal and the like is kept as it is: in a request, none is decoded
 * from a struct.
 */
const keepUnknownFields = (ast: AST.AST): AST.AST => {
  const known = opened.get(ast)
  if (known !== undefined) return known
  const open = openStructs(ast)
  opened.set(ast, open)
  return open
}

const openStructs = (ast: AST.AST): AST.AST => {
  const encoding = ast.encoding &&
    Arr.map(ast.encoding, (link) => new AST.Link(keepUnknownFields(link.to), link.transformation))
  switch (ast._tag) {
    case "Objects":
      return new AST.Objects(
        ast.propertySignatures.map((property) =>
          new AST.PropertySignature(property.name, keepUnknownFields(property.type))
        ),
        ast.indexSignatures.length === 0 && ast.propertySignatures.length > 0
          ? [unknownField]
          : ast.indexSignatures.map((index) => new AST.IndexSignature(index.parameter, keepUnknownFields(index.type))),
        ast.annotations,
        ast.checks,
        encoding,
        ast.context,
        ast.encodingChecks
      )
    case "Arrays":
      return new AST.Arrays(
        ast.isMutable,
        ast.elements.map(keepUnknownFields),
        ast.rest.map(keepUnknownFields),
        ast.annotations,
        ast.checks,
        encoding,
        ast.context,
        ast.encodingChecks
      )
    case "Union":
      return new AST.Union(
        ast.types.map(keepUnknownFields),
        ast.options,
        ast.annotations,
        ast.checks,
        encoding,
        ast.context,
        ast.encodingChecks
      )
    case "Declaration":
      return new AST.Declaration(
        ast.typeParameters.map(keepUnknownFields),
        ast.run,
        ast.annotations,
        ast.checks,
        encoding,
        ast.context,
        ast.encodingChecks,
        ast.encodingRun
      )
    case "Suspend":
      return new AST.Suspend(() => keepUnknownFields(ast.thunk()), ast.annotations, ast.checks, encoding, ast.context)
    default:
      return ast
  }
}

/** A request's decoded value, or every issue found with its path. */
export type RequestDecoder<A> = (input: unknown) => Result.Result<A, ReadonlyArray<Issue>>

/** Compiled decoders: compiling a schema costs far more than a decode, and property tests decode often. */
const compiled = new WeakMap<Schema.Top, RequestDecoder<unknown>>()

/**
 * The decoder of a request schema, compiled once per schema: it reports every broken rule, and keeps the
 * fields the schema does not list (at any depth), so that fields the service adds later can be sent.
 */
export const requestDecoder = <S extends Schema.Top & { readonly DecodingServices: never }>(
  schema: S
): RequestDecoder<S["Type"]> => {
  let decoder = compiled.get(schema)
  if (decoder === undefined) {
    const open = Schema.make<Schema.Codec<S["Type"], unknown>>(keepUnknownFields(schema.ast))
    const decode = SchemaParser.decodeUnknownResult(open, parseOptions)
    decoder = (input) => Result.mapError(decode(input), fromSchemaIssue)
    compiled.set(schema, decoder)
  }
  return decoder
}

/** Checks the input of a call against a request schema, naming the operation in its error. */
export type RequestValidator<A> = (operation: string, input: unknown) => Effect.Effect<A, ValidationError>

/**
 * The check of a request schema, made once per operation: a usual request is decoded by `accept`, the
 * schema's fast path (see each module of the core's `validate/`), to the same value; any other by the
 * schema, reporting every broken rule with its path as one `ValidationError`. Unknown fields are kept, so
 * fields the service adds later can be sent.
 */
export const requestValidator = <S extends Schema.Top & { readonly DecodingServices: never }>(
  schema: S,
  accept?: Accept<S["Type"]>
): RequestValidator<S["Type"]> => {
  const decode = requestDecoder(schema)
  return (operation, input) => {
    const accepted = accept?.(input)
    if (accepted !== undefined) return Effect.succeed(accepted)
    const result = decode(input)
    return Result.isSuccess(result)
      ? Effect.succeed(result.success)
      : Effect.fail(
        new ValidationError({
          operation,
          source: "client",
          issues: result.failure.map((issue) => new ValidationIssue(issue))
        })
      )
  }
}

/** Decodes `input` with `schema` once, as `requestValidator` does. */
export const validateRequest = <S extends Schema.Top & { readonly DecodingServices: never }>(
  operation: string,
  schema: S,
  input: unknown
): Effect.Effect<S["Type"], ValidationError> => requestValidator(schema)(operation, input)

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
