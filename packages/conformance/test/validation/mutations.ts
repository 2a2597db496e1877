/**
 * Requests changed in small ways, some still valid and most not: a value replaced (by another kind, a
 * number at or past a bound, `null`, `undefined`, an empty, long or many-worded string), a field removed
 * or added, an item repeated or removed, keys in another order, and objects of unusual make (a symbol key,
 * a field that is not enumerable, another prototype, an array with a hole). Tests of the request fast
 * paths hold them to the schemas on these.
 */
import { expect, isFailure } from "@studio-effect/line"
import * as fc from "fast-check"
import { absoluteUrl, text, webSearchUrl, wordsText } from "./arbitraries.js"
import { type RequestSchema, validate } from "./support.js"

type Path = ReadonlyArray<string | number>

/** Whether a value is a plain object or array, whose fields a mutation may change. */
const isChangeable = (value: unknown): value is Record<string | number, unknown> => {
  if (typeof value !== "object" || value === null) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null || Array.isArray(value)
}

/** Every path in a value, the root first, through plain objects and arrays. */
const pathsOf = (value: unknown, path: Path = [], out: Array<Path> = []): Array<Path> => {
  out.push(path)
  if (!isChangeable(value)) return out
  for (const key of Object.keys(value)) pathsOf(value[key], [...path, key], out)
  return out
}

/** Sets an own field, enumerable unless told otherwise, whatever its key (`__proto__` included). */
const setField = (object: object, key: PropertyKey, value: unknown, enumerable = true): void => {
  Object.defineProperty(object, key, { value, enumerable, writable: true, configurable: true })
}

const words = (count: number, gap: string) => Array.from({ length: count }, () => "w").join(gap)

/** Strings at the rules' edges: empty, 64K and one more, 128 words and 129, names the schemas know. */
const edgeStrings = fc.constantFrom(
  "",
  " ",
  "__proto__",
  "x".repeat(64 * 1024),
  "x".repeat(64 * 1024 + 1),
  words(128, " "),
  words(129, " "),
  `${words(128, " ")} `,
  words(129, "\u00a0"),
  words(129, "\ufeff"),
  words(129, "\u3000"),
  words(129, "\u2028"),
  "json",
  "object",
  "function",
  "text",
  "json_object",
  "system",
  "user",
  "assistant",
  "tool",
  "mcp",
  "http",
  "file_search",
  "web_search",
  "low",
  "medium",
  "english",
  "unset",
  "chat",
  "data_sources",
  "requirements_result.metadata",
  "localhost",
  "ftp://example.com",
  "https://",
  "https://example.com/a b"
)

const strings: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: edgeStrings },
  { weight: 2, arbitrary: fc.constant("") },
  { weight: 1, arbitrary: text },
  { weight: 1, arbitrary: absoluteUrl },
  { weight: 1, arbitrary: webSearchUrl },
  { weight: 1, arbitrary: fc.constantFrom(128, 129).chain(wordsText) }
)

/** Numbers at the rules' edges (0 to 2, 0 to 1, 1 to 16, 1 to 4096) and past them. */
const numbers: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    -1,
    -0,
    0,
    0.5,
    1,
    1.5,
    1.0000001,
    2,
    2.0000001,
    3,
    16,
    17,
    4096,
    4097,
    1e21,
    NaN,
    Infinity,
    -Infinity
  ),
  fc.integer({ min: -5, max: 5000 }),
  fc.double()
)

/** Values of any kind, ordinary and odd: boxed values, null-prototype objects, sparse arrays, dates, maps. */
const anyValues: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, undefined, true, false),
  // a fresh empty array or object each time: a shared one would be changed in place by later mutations,
  // across samples, until it held itself
  fc.constantFrom("array", "object").map((kind) => kind === "array" ? [] : {}),
  fc.anything({
    maxDepth: 2,
    withBoxedValues: true,
    withNullPrototype: true,
    withSparseArray: true,
    withDate: true,
    withMap: true,
    withSet: true
  })
)

/** A value to put in place of another: most often one of the same kind, so that deeper rules are reached. */
interface Replacement {
  readonly sameKind: boolean
  readonly kind: "string" | "number" | "other"
  readonly string: string
  readonly number: number
  readonly other: unknown
}

const replacement: fc.Arbitrary<Replacement> = fc.record({
  sameKind: fc.boolean(),
  kind: fc.constantFrom("string" as const, "number" as const, "other" as const),
  string: strings,
  number: numbers,
  other: anyValues
})

const replacing = (current: unknown, change: Replacement): unknown => {
  const kind = !change.sameKind
    ? change.kind
    : typeof current === "string"
    ? "string"
    : typeof current === "number"
    ? "number"
    : "other"
  return change[kind]
}

/** A field name a request may have somewhere, or any name. */
const fieldName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "role",
    "content",
    "tool_calls",
    "tool_call_id",
    "id",
    "type",
    "name",
    "description",
    "parameters",
    "properties",
    "required",
    "metadata",
    "key",
    "value",
    "n",
    "stream",
    "temperature",
    "input",
    "title",
    "headers",
    "urls",
    "server_label",
    "__proto__",
    "0"
  ),
  fc.string({ maxLength: 8 })
)

type Kind = "replace" | "remove" | "add" | "repeat" | "reorder" | "unusual"

interface Mutation {
  readonly kind: Kind
  readonly at: number
  readonly key: string
  readonly value: Replacement
  readonly variant: number
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom<Kind>("replace", "replace", "replace", "remove", "add", "repeat", "reorder", "unusual"),
  at: fc.nat(),
  key: fieldName,
  value: replacement,
  variant: fc.nat({ max: 5 })
})

class Custom {}

/** Makes an object or array unusual in one of several ways (by `variant`). */
const makeUnusual = (target: object, key: string, value: unknown, variant: number): void => {
  if (Array.isArray(target)) {
    if (variant % 3 === 0 && target.length > 0) delete target[variant % target.length]
    // an array's own `length` cannot be redefined
    else if (variant % 3 === 1) setField(target, key === "" || key === "length" ? "extra" : key, value)
    else Object.setPrototypeOf(target, (class extends Array {}).prototype)
    return
  }
  switch (variant) {
    case 0:
      return setField(target, Symbol("extra"), value)
    case 1:
      return setField(target, key, value, false)
    case 2:
      return void Object.setPrototypeOf(target, null)
    case 3:
      return void Object.setPrototypeOf(target, Custom.prototype)
    default:
      // a field made not enumerable: a struct still reads it, a record leaves it out
      for (const name of Object.keys(target).slice(0, 1)) {
        setField(target, name, (target as Record<string, unknown>)[name], false)
      }
  }
}

/** Applies one change at the path `at` picks, in place; the root is given back, changed or replaced. */
const apply = (root: unknown, change: Mutation): unknown => {
  const paths = pathsOf(root)
  const path = paths[change.at % paths.length]!
  if (path.length === 0 && (change.kind === "replace" || change.kind === "remove")) {
    return replacing(root, change.value)
  }
  let parent: any = undefined
  let target: any = root
  for (const segment of path) {
    parent = target
    target = target[segment]
  }
  const last = path[path.length - 1]!
  switch (change.kind) {
    case "replace":
      setField(parent, last, replacing(target, change.value))
      break
    case "remove":
      if (Array.isArray(parent)) parent.splice(Number(last), 1)
      else delete parent[last]
      break
    case "add":
      if (isChangeable(target) && !Array.isArray(target)) {
        setField(target, change.key, replacing(undefined, change.value))
      }
      break
    case "repeat":
      if (Array.isArray(target) && target.length > 0) {
        target.splice(change.at % (target.length + 1), 0, target[change.variant % target.length])
      }
      break
    case "reorder":
      if (isChangeable(target) && !Array.isArray(target)) {
        const entries = Object.entries(target).reverse()
        for (const [key] of entries) delete target[key]
        for (const [key, value] of entries) setField(target, key, value)
      }
      break
    case "unusual":
      if (isChangeable(target)) makeUnusual(target, change.key, change.value.other, change.variant)
      break
  }
  return root
}

/** A value of `valid`, changed by one to three mutations. */
export const mutated = <A>(valid: fc.Arbitrary<A>): fc.Arbitrary<unknown> =>
  fc.tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([value, changes]) =>
    changes.reduce<unknown>(apply, structuredClone(value))
  )

/**
 * A value of `valid` with one to three of its top-level fields set to a value from `edges`: values at and
 * just past the bounds of each field's rules, so that every bound is met often.
 */
export const withFieldsAt = <A extends object>(
  valid: fc.Arbitrary<A>,
  edges: Readonly<Record<string, fc.Arbitrary<unknown>>>
): fc.Arbitrary<unknown> =>
  fc.tuple(valid, fc.subarray(Object.keys(edges), { minLength: 1, maxLength: 3 })).chain(([value, names]) =>
    fc.tuple(...names.map((name) => edges[name]!)).map((fields) => ({
      ...value,
      ...Object.fromEntries(names.map((name, i) => [name, fields[i]]))
    }))
  )

const at = (root: unknown, path: Path): any => path.reduce<any>((value, segment) => value[segment], root)

/**
 * `value` with one field added, for every object in it and every key used anywhere in it (with that key's
 * first value): a fast path that lists a key it does not copy accepts one of these.
 */
export const withEachFieldAdded = (value: unknown): ReadonlyArray<unknown> => {
  const paths = pathsOf(value)
  const firstValues = new Map<string, unknown>()
  for (const path of paths) {
    const last = path[path.length - 1]
    if (last === undefined || Array.isArray(at(value, path.slice(0, -1)))) continue
    if (!firstValues.has(String(last))) firstValues.set(String(last), at(value, path))
  }
  const objectPaths = paths.filter((path) => {
    const target = at(value, path)
    return isChangeable(target) && !Array.isArray(target)
  })
  return objectPaths.flatMap((path) =>
    [...firstValues].map(([key, field]) => {
      const changed = structuredClone(value)
      setField(at(changed, path), key, field)
      return changed
    })
  )
}

/** Valid requests, requests changed anywhere, requests with fields at their bounds (`edges`), and anything. */
export const aroundValid = <A extends object>(
  valid: fc.Arbitrary<A>,
  edges: Readonly<Record<string, fc.Arbitrary<unknown>>>
): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 1, arbitrary: valid },
    { weight: 4, arbitrary: mutated(valid) },
    { weight: 2, arbitrary: withFieldsAt(valid, edges) },
    { weight: 1, arbitrary: fc.anything() }
  )

/**
 * A check that `schema` decodes an input to exactly what a fast path accepted from it: deep-equal, and the
 * same JSON.
 */
export const schemaGives = (schema: RequestSchema) => (input: unknown, accepted: unknown): void => {
  const decoded = validate(schema, input)
  if (isFailure(decoded)) {
    return expect.fail(`accepted, but the schema refuses it: ${JSON.stringify(decoded.failure)}`)
  }
  expect(accepted).toStrictEqual(decoded.success)
  expect(JSON.stringify(accepted)).toBe(JSON.stringify(decoded.success))
}
