/**
 * Turning schema decoding failures into the flat, path-addressed issues that `ValidationError` carries, and
 * checks over a whole value that run even when one of its parts breaks its own rule.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import {
  decodeReason as reasonOf,
  type Issue,
  type IssueType,
  type LocatedIssue,
  pathIssues,
  showValue,
  uniqueIssues,
  valueAt
} from "studio-effect-core/validate/issues"

export type { Issue }

/** A rule broken at `path` (relative to the value checked), with what to do about it. */
export interface PathIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly issue: string
}

/** `, got <value>` when the decoder reported the value (the `reportInput` parse option), else nothing. */
const got = (issue: SchemaIssue.Issue): string => SchemaIssue.hasInput(issue) ? `, got ${showValue(issue.input)}` : ""

/**
 * The members of an optional field's union that are never what the caller meant: `undefined`, and the
 * `null` that an optional field takes as absent.
 */
const isAbsentMember = (ast: AST.AST): boolean => ast._tag === "Undefined" || ast._tag === "Null"

const meantMembers = (union: AST.Union): ReadonlyArray<AST.AST> =>
  union.types.filter((member) => !isAbsentMember(member))

/**
 * What a schema expects, in words: `a string`, `one of "low", "medium", "high"`, `an object`. A struct or
 * an array is named by its title only: an identifier names a whole request, not the kind of a value.
 */
const describe = (ast: AST.AST): string => {
  if (ast.encoding !== undefined) return describe(AST.toEncoded(ast))
  switch (ast._tag) {
    case "Literal":
      return JSON.stringify(ast.literal)
    case "Null":
      return "null"
    case "String":
      return "a string"
    case "Number":
      return "a number"
    case "Boolean":
      return "a boolean"
    case "Undefined":
      return "undefined"
    case "Objects":
      return AST.resolveTitle(ast) ?? "an object"
    case "Arrays":
      return AST.resolveTitle(ast) ?? "an array"
    case "Declaration": {
      const named = AST.resolveIdentifier(ast) ?? AST.resolveTitle(ast)
      if (named !== undefined) return named
      return ast.typeParameters.length === 1 ? describe(ast.typeParameters[0]!) : "a value of its kind"
    }
    case "Union": {
      const members = meantMembers(ast)
      if (members.length === 1) return describe(members[0]!)
      const words = Array.from(new Set(members.map(describe)))
      return members.every(AST.isLiteral) ? `one of ${words.join(", ")}` : words.join(" or ")
    }
    default: {
      const expected = ast.annotations?.expected
      return typeof expected === "string" ? expected : "a value of its kind"
    }
  }
}

/** The kind of a "not of that kind" failure against `ast`. */
const typeOf = (ast: AST.AST): IssueType => {
  if (ast.encoding !== undefined) return typeOf(AST.toEncoded(ast))
  switch (ast._tag) {
    case "String":
      return "string_type"
    case "Number":
      return "float_type"
    case "Boolean":
      return "bool_type"
    case "Literal":
      return "literal_error"
    case "Arrays":
      return "list_type"
    case "Objects":
      return "dict_type"
    case "Declaration":
      return ast.typeParameters.length === 1 ? typeOf(ast.typeParameters[0]!) : "value_error"
    case "Union": {
      const members = meantMembers(ast)
      if (members.length === 1) return typeOf(members[0]!)
      return members.every(AST.isLiteral) ? "literal_error" : "union_type"
    }
    default:
      return "value_error"
  }
}

/** A message annotation of a schema itself (not of one of its checks). */
const ownMessage = (ast: AST.AST, key: "message" | "messageUnexpectedKey" = "message"): string | undefined => {
  const message = ast.annotations?.[key]
  return typeof message === "string" ? message : undefined
}

/** A failure that only says "this value is not of that kind" (as opposed to one inside a matching value). */
const isShallow = (issue: SchemaIssue.Issue): boolean => {
  switch (issue._tag) {
    case "InvalidType":
      return true
    case "AnyOf":
      return issue.issues.every(isShallow)
    case "Encoding":
      return isShallow(issue.issue)
    default:
      return false
  }
}

const isObjectLike = (value: unknown): value is object => typeof value === "object" && value !== null

/**
 * The key that tells the members of a union apart (`role`, `type`) with the literal of each member, when
 * every member is a struct with a required literal field under that key.
 */
const discriminantOf = (
  members: ReadonlyArray<AST.AST>
): { readonly key: PropertyKey; readonly literals: ReadonlyArray<AST.LiteralValue> } | undefined => {
  const [first, ...rest] = members
  if (first === undefined || !AST.isObjects(first)) return undefined
  for (const property of first.propertySignatures) {
    const literals: Array<AST.LiteralValue> = []
    for (const member of [first, ...rest]) {
      const type = AST.isObjects(member)
        ? member.propertySignatures.find((candidate) => candidate.name === property.name)?.type
        : undefined
      if (type === undefined || !AST.isLiteral(type) || AST.isOptional(type)) break
      literals.push(type.literal)
    }
    if (literals.length === members.length) return { key: property.name, literals }
  }
  return undefined
}

const segment = (key: PropertyKey): string | number => typeof key === "number" ? key : String(key)

/**
 * How deep an issue tree is followed. The tree follows the schema, not the value, but a value nested
 * thousands of levels deep under a schema that accepts nesting must not make the walk deeper than this:
 * below it, the issue is reported where the walk stopped.
 */
const maxIssueDepth = 256

const leaves = (
  issue: SchemaIssue.Issue,
  path: ReadonlyArray<string | number>,
  out: Array<LocatedIssue>,
  depth = 0
): void => {
  const add = (message: string, type: IssueType, at: ReadonlyArray<string | number> = path): void => {
    out.push({ loc: at, message, type })
  }
  if (depth > maxIssueDepth) return add("is not valid (nested too deeply to say more)", "value_error")
  const next = depth + 1
  /** The value (reported in `issue`) is not of the kind `ast` expects. */
  const notOfKind = (ast: AST.AST): void => {
    const message = ownMessage(ast)
    return message === undefined
      ? add(`expected ${describe(ast)}${got(issue)}`, typeOf(ast))
      : add(message, "value_error")
  }
  /**
   * A union reports the failure of each member the value could have been; keep those where the value had
   * the member's shape, or else say once what was expected (an optional field's `undefined` or `null`
   * member is never what the caller meant).
   */
  const unionFailure = (union: AST.Union, failures: ReadonlyArray<SchemaIssue.Issue>): void => {
    const deep = failures.filter((member) => !isShallow(member))
    if (deep.length > 0) {
      for (const member of deep) leaves(member, path, out, next)
      return
    }
    const members = meantMembers(union)
    if (members.length === 1) {
      const [only] = failures
      if (only !== undefined) return leaves(only, path, out, next)
      const member = members[0]!
      return AST.isUnion(member) ? unionFailure(member, []) : notOfKind(member)
    }
    const discriminant = failures.length === 0 ? discriminantOf(members) : undefined
    if (discriminant !== undefined && SchemaIssue.hasInput(issue) && isObjectLike(issue.input)) {
      const at = [...path, segment(discriminant.key)]
      if (!(discriminant.key in issue.input)) return add("is missing: this field is required", "missing", at)
      const words = Array.from(new Set(discriminant.literals.map((literal) => JSON.stringify(literal))))
      const value = (issue.input as Record<PropertyKey, unknown>)[discriminant.key]
      return add(`expected one of ${words.join(", ")}, got ${showValue(value)}`, "literal_error", at)
    }
    return add(`expected ${describe(union)}${got(issue)}`, typeOf(union))
  }
  switch (issue._tag) {
    case "InvalidType":
      return notOfKind(issue.ast)
    case "InvalidValue":
      return add(issue.annotations?.message ?? `is not a valid value${got(issue)}`, "value_error")
    case "MissingKey":
      return add(issue.annotations?.messageMissingKey ?? "is missing: this field is required", "missing")
    case "UnexpectedKey":
      return add(ownMessage(issue.ast, "messageUnexpectedKey") ?? "is not a known field", "extra_forbidden")
    case "Forbidden":
      return add(issue.annotations?.message ?? "cannot be checked synchronously", "value_error")
    case "OneOf":
      return add(`matches more than one of ${describe(issue.ast)}${got(issue)}`, typeOf(issue.ast))
    case "Pointer":
      return leaves(issue.issue, [...path, ...issue.path.map(segment)], out, next)
    case "Filter": {
      const message = issue.filter.annotations?.message
      return typeof message === "string" ? add(message, "value_error") : leaves(issue.issue, path, out, next)
    }
    case "Encoding":
      return leaves(issue.issue, path, out, next)
    case "Composite": {
      for (const member of issue.issues) leaves(member, path, out, next)
      return
    }
    case "AnyOf":
      return unionFailure(issue.ast, issue.issues)
  }
}

/** Every issue of a decoding failure, each with its path and a message a person can act on, de-duplicated. */
export const fromSchemaIssue = (issue: SchemaIssue.Issue): ReadonlyArray<Issue> => pathIssues(locatedIssues(issue))

/** The reason of a `DecodeError` (see the core's `decodeReason`), from this module's bounded walk. */
export const decodeReason = (issue: SchemaIssue.Issue): string => reasonOf(fromSchemaIssue(issue))

/**
 * Every issue of a decoding failure with its path as segments and its kind, one per problem: the same
 * path and message are reported once. Messages show the offending value when the decoder reported it (the
 * `reportInput` parse option).
 */
export const locatedIssues = (issue: SchemaIssue.Issue): ReadonlyArray<LocatedIssue> => {
  const found: Array<LocatedIssue> = []
  leaves(issue, [], found)
  return uniqueIssues(found)
}

/**
 * Adds checks over the whole value (rules that relate several fields or elements) that run on the input
 * even when a part breaks its own rule, so that one answer lists every broken rule. `checks` sees the raw
 * input and must only look at parts that have the expected kind.
 */
export const withWholeChecks = <S extends Schema.Top>(
  schema: S,
  checks: (input: unknown) => ReadonlyArray<PathIssue>,
  annotations?: Schema.Annotations.Declaration<S["Type"], readonly [S]>
) =>
  Schema.declareConstructor<S["Type"], S["Encoded"]>()(
    [schema],
    ([parts]) => {
      const decode = SchemaParser.decodeUnknownEffect(parts)
      return (input, self, options) => {
        const [first, ...more] = checks(input).map(({ issue, path }): SchemaIssue.Issue => {
          const invalid = new SchemaIssue.InvalidValue({ message: issue }, valueAt(input, path), options)
          return path.length === 0 ? invalid : new SchemaIssue.Pointer(path, invalid)
        })
        if (first === undefined) return decode(input, options)
        return Effect.flatMap(
          Effect.result(decode(input, options)),
          (decoded) =>
            Effect.fail(
              new SchemaIssue.Composite(
                self,
                decoded._tag === "Failure" ? [decoded.failure, first, ...more] : [first, ...more],
                input,
                options
              )
            )
        )
      }
    },
    annotations
  )
