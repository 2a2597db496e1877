/**
 * The parts the request fast paths are made of: checks of plain values that give what a request schema
 * decodes a value to, or `undefined` when they cannot prove the value valid (the schema then decides).
 *
 * They accept only the plain data an application writes or `JSON.parse` gives: objects with
 * `Object.prototype` (or no prototype), arrays, strings, numbers and booleans. A `null` or `undefined`
 * field, a field the schema does not list, a symbol key and `__proto__` as a key are left to the schema,
 * which drops, keeps or assigns them in ways not worth repeating here.
 */

/** Decodes a value it can prove valid, or gives `undefined`. */
export type Accept<A> = (value: unknown) => A | undefined

/** A decoded value while it is being built, field by field. */
export type Mutable<A> = { -readonly [K in keyof A]: A[K] }

/** An object written as a literal or parsed from JSON, so that no field a fast path reads is inherited. */
export const isPlainObject = (value: unknown): value is Readonly<Record<string, unknown>> => {
  if (typeof value !== "object" || value === null) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

const isPlainArray = (value: unknown): value is ReadonlyArray<unknown> =>
  Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype

/**
 * Whether every key of `object` is one of `known`. A schema struct keeps other keys (symbols and keys
 * that are not enumerable too) and puts them first; a fast path leaves such objects to it. Each fast path
 * lists the keys it copies rather than reading them from the schema, so that a field added to a schema
 * goes to the schema until the fast path copies it too.
 */
export const hasOnlyKeys = (object: object, known: ReadonlySet<string>): boolean => {
  const keys = Object.getOwnPropertyNames(object)
  for (let i = 0; i < keys.length; i++) {
    if (!known.has(keys[i]!)) return false
  }
  return Object.getOwnPropertySymbols(object).length === 0
}

/**
 * Copies the optional field `key` of `input`, decoded by `accept`, into `output`; false when the field is
 * there and not accepted. Assigned in the order of the calls, which is the order of the schema's fields.
 */
export const copyOptional = <O, K extends keyof O & string>(
  input: Readonly<Record<string, unknown>>,
  key: K,
  accept: Accept<O[K]>,
  output: O
): boolean => {
  if (!Object.hasOwn(input, key)) return true
  const value = accept(input[key])
  if (value === undefined) return false
  output[key] = value
  return true
}

/** `Schema.String`. */
export const acceptString: Accept<string> = (value) => typeof value === "string" ? value : undefined

/** `Schema.NonEmptyString`. */
export const acceptNonEmptyString: Accept<string> = (value) =>
  typeof value === "string" && value !== "" ? value : undefined

/** `Schema.Boolean`. */
export const acceptBoolean: Accept<boolean> = (value) => typeof value === "boolean" ? value : undefined

/** `Schema.Unknown` as a field of a record: any value but `undefined`, as given. */
const acceptAnyValue: Accept<unknown> = (value) => value

/** One of the literals of a `Schema.Literal`. */
export const oneOf = <L extends string>(literals: ReadonlyArray<L>): Accept<L> => {
  const allowed: ReadonlySet<unknown> = new Set(literals)
  return (value) => allowed.has(value) ? value as L : undefined
}

/** `Schema.Array(item)`: a new array of the decoded items. */
export const arrayOf = <A>(item: Accept<A>): Accept<Array<A>> => (value) => {
  if (!isPlainArray(value)) return undefined
  const items: Array<A> = []
  for (let i = 0; i < value.length; i++) {
    const decoded = item(value[i])
    if (decoded === undefined) return undefined
    items.push(decoded)
  }
  return items
}

/** `Schema.Array(Schema.String)`. */
export const acceptStrings: Accept<Array<string>> = arrayOf(acceptString)

/**
 * The keys of a record as the schema reads them (`Object.keys`), when it has no symbol key (which the
 * schema keeps) and none is `__proto__` (which the schema assigns, setting the decoded object's prototype
 * instead of adding a key).
 */
export const recordKeys = (record: object): ReadonlyArray<string> | undefined => {
  const keys = Object.keys(record)
  return Object.getOwnPropertySymbols(record).length > 0 || keys.includes("__proto__") ? undefined : keys
}

/** `Schema.Record({ key: Schema.String, value })`: a new object with the decoded values, key by key. */
export const recordOf = <A>(value: Accept<A>): Accept<Record<string, A>> => (input) => {
  if (!isPlainObject(input)) return undefined
  const keys = recordKeys(input)
  if (keys === undefined) return undefined
  const record: Record<string, A> = {}
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const decoded = value(input[key])
    if (decoded === undefined) return undefined
    record[key] = decoded
  }
  return record
}

/** `Schema.Record({ key: Schema.String, value: Schema.String })`. */
export const acceptStringRecord: Accept<Record<string, string>> = recordOf(acceptString)

/** `Schema.Record({ key: Schema.String, value: Schema.Unknown })`: a JSON object given as is, field by field. */
export const acceptUnknownRecord: Accept<Record<string, unknown>> = recordOf(acceptAnyValue)
