/**
 * Turning schema parse failures into the flat, path-addressed issues that `ValidationError` carries, and
 * checks over a whole value that run even when one of its parts breaks its own rule.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
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

/**
 * The members of an optional field's union that are never what the caller meant: `undefined`, and the
 * `null` that an optional field takes as absent.
 */
const isAbsentMember = (ast: AST.AST): boolean =>
  ast._tag === "UndefinedKeyword" || (ast._tag === "Literal" && ast.literal === null)

/** What a schema expects, in words: `a string`, `one of "low", "medium", "high"`, `an object`. */
const describe = (ast: AST.AST): string => {
  switch (ast._tag) {
    case "Literal":
      return ast.literal === null ? "null" : JSON.stringify(ast.literal)
    case "StringKeyword":
      return "a string"
    case "NumberKeyword":
      return "a number"
    case "BooleanKeyword":
      return "a boolean"
    case "UndefinedKeyword":
      return "undefined"
    case "TypeLiteral":
    case "TupleType":
    case "Declaration": {
      const named = Option.orElse(AST.getIdentifierAnnotation(ast), () => AST.getTitleAnnotation(ast))
      if (Option.isSome(named)) return named.value
      if (ast._tag === "Declaration" && ast.typeParameters.length === 1) return describe(ast.typeParameters[0]!)
      return ast._tag === "TupleType" ? "an array" : ast._tag === "TypeLiteral" ? "an object" : String(ast)
    }
    case "Refinement":
      return describe(ast.from)
    case "Transformation":
      return describe(ast.from)
    case "Union": {
      const members = ast.types.filter((member) => !isAbsentMember(member))
      if (members.length === 1) return describe(members[0]!)
      const words = Array.from(new Set(members.map(describe)))
      return members.every((member) => member._tag === "Literal")
        ? `one of ${words.join(", ")}`
        : words.join(" or ")
    }
    default:
      return String(ast)
  }
}

/** The kind of a "not of that kind" failure against `ast`. */
const typeOf = (ast: AST.AST): IssueType => {
  switch (ast._tag) {
    case "StringKeyword":
      return "string_type"
    case "NumberKeyword":
      return "float_type"
    case "BooleanKeyword":
      return "bool_type"
    case "Literal":
      return "literal_error"
    case "TupleType":
      return "list_type"
    case "TypeLiteral":
      return "dict_type"
    case "Declaration":
      return ast.typeParameters.length === 1 ? typeOf(ast.typeParameters[0]!) : "value_error"
    case "Refinement":
    case "Transformation":
      return typeOf(ast.from)
    case "Union": {
      const members = ast.types.filter((member) => !isAbsentMember(member))
      if (members.length === 1) return typeOf(members[0]!)
      return members.every((member) => member._tag === "Literal") ? "literal_error" : "union_type"
    }
    default:
      return "value_error"
  }
}

/** The `message` annotation of a schema, when it is a plain string or function of the issue. */
const annotatedMessage = (issue: ParseResult.ParseIssue): string | undefined => {
  if (!("ast" in issue)) return undefined
  const annotation = AST.getMessageAnnotation(issue.ast)
  if (Option.isNone(annotation)) return undefined
  const message = annotation.value(issue)
  if (typeof message === "string") return message
  if (typeof message === "object" && message !== null && "message" in message && typeof message.message === "string") {
    return message.message
  }
  return undefined
}

/** A failure that only says "this value is not of that kind" (as opposed to one inside a matching value). */
const isShallow = (issue: ParseResult.ParseIssue): boolean => {
  switch (issue._tag) {
    case "Type":
      return issue.message === undefined
    case "Refinement":
      return issue.kind === "From" && isShallow(issue.issue)
    case "Transformation":
      return issue.kind === "Encoded" && isShallow(issue.issue)
    case "Composite":
      return AST.isUnion(issue.ast) && toArray(issue.issues).every(isShallow)
    default:
      return false
  }
}

const toArray = <A>(value: A | ReadonlyArray<A>): ReadonlyArray<A> =>
  Array.isArray(value) ? value as ReadonlyArray<A> : [value as A]

/**
 * How deep an issue tree is followed. The tree follows the schema, not the value, but a value nested
 * thousands of levels deep under a schema that accepts nesting must not make the walk deeper than this:
 * below it, the issue is reported where the walk stopped.
 */
const maxIssueDepth = 256

const leaves = (
  issue: ParseResult.ParseIssue,
  path: ReadonlyArray<string | number>,
  out: Array<LocatedIssue>,
  depth = 0
): void => {
  const add = (message: string, type: IssueType): void => {
    out.push({ loc: path, message, type })
  }
  if (depth > maxIssueDepth) return add("is not valid (nested too deeply to say more)", "value_error")
  const next = depth + 1
  switch (issue._tag) {
    case "Type": {
      const message = issue.message ?? annotatedMessage(issue)
      return message === undefined
        ? add(`expected ${describe(issue.ast)}, got ${showValue(issue.actual)}`, typeOf(issue.ast))
        : add(message, "value_error")
    }
    case "Missing":
      return add(issue.message ?? "is missing: this field is required", "missing")
    case "Unexpected":
      return add(issue.message ?? "is not a known field", "extra_forbidden")
    case "Forbidden":
      return add(issue.message ?? "cannot be checked synchronously", "value_error")
    case "Pointer":
      return leaves(issue.issue, [...path, ...toArray(issue.path).map(segment)], out, next)
    case "Refinement": {
      const message = issue.kind === "Predicate" ? annotatedMessage(issue) : undefined
      return message === undefined ? leaves(issue.issue, path, out, next) : add(message, "value_error")
    }
    case "Transformation":
      return leaves(issue.issue, path, out, next)
    case "Composite": {
      const members = toArray(issue.issues)
      if (!AST.isUnion(issue.ast)) {
        for (const member of members) leaves(member, path, out, next)
        return
      }
      // A union reports one failure per member; keep those where the value had the member's shape, or else
      // say once what was expected (an optional field's `undefined` or `null` member is never what the
      // caller meant).
      const meant = members.filter((member) => !(member._tag === "Type" && isAbsentMember(member.ast)))
      const deep = meant.filter((member) => !isShallow(member))
      if (deep.length > 0) {
        for (const member of deep) leaves(member, path, out, next)
      } else if (meant.length === 1) {
        leaves(meant[0]!, path, out, next)
      } else {
        add(`expected ${describe(issue.ast)}, got ${showValue(issue.actual)}`, typeOf(issue.ast))
      }
      return
    }
  }
}

const segment = (key: PropertyKey): string | number => typeof key === "number" ? key : String(key)

/** Every issue of a parse failure, each with its path and a message a person can act on, de-duplicated. */
export const fromParseError = (error: ParseResult.ParseError): ReadonlyArray<Issue> => fromParseIssue(error.issue)

/** Every issue of a parse issue tree (see `fromParseError`). */
const fromParseIssue = (issue: ParseResult.ParseIssue): ReadonlyArray<Issue> => pathIssues(locatedIssues(issue))

/** The reason of a `DecodeError` (see the core's `decodeReason`), from this module's bounded walk. */
export const decodeReason = (issue: ParseResult.ParseIssue): string => reasonOf(fromParseIssue(issue))

/**
 * Every issue of a parse issue tree with its path as segments and its kind, one per problem: the same
 * path and message are reported once.
 */
export const locatedIssues = (issue: ParseResult.ParseIssue): ReadonlyArray<LocatedIssue> => {
  const found: Array<LocatedIssue> = []
  leaves(issue, [], found)
  return uniqueIssues(found)
}

/**
 * Adds checks over the whole value (rules that relate several fields or elements) that run on the input
 * even when a part breaks its own rule, so that one answer lists every broken rule. `checks` sees the raw
 * input and must only look at parts that have the expected kind.
 */
export const withWholeChecks = <A, I>(
  schema: Schema.Schema<A, I>,
  checks: (input: unknown) => ReadonlyArray<Schema.FilterIssue>,
  annotations?: Schema.Annotations.Schema<A, readonly [A]>
): Schema.Schema<A, I> =>
  Schema.declare([schema], {
    decode: (parts) => (input, options, ast) => {
      const decoded = ParseResult.decodeUnknownEither(parts)(input, options)
      const found = checks(input)
      if (found.length === 0) return decoded
      const issues = found.map(({ message, path }): ParseResult.ParseIssue => {
        const type = new ParseResult.Type(ast, valueAt(input, path), message)
        return path.length === 0 ? type : new ParseResult.Pointer(path as ParseResult.Path, input, type)
      })
      const all: [ParseResult.ParseIssue, ...Array<ParseResult.ParseIssue>] = Either.isLeft(decoded)
        ? [decoded.left, ...issues]
        : [issues[0]!, ...issues.slice(1)]
      return Either.left(new ParseResult.Composite(ast, input, all))
    },
    encode: (parts) => (input, options) => ParseResult.encodeUnknownEither(parts)(input, options)
  }, annotations)
