/**
 * A value for a JSON Schema, made within fixed limits whatever the schema asks: the generator behind the
 * built-in model's tool arguments (and any JSON answer that must follow a schema).
 *
 * It understands the common keywords (`type`, `enum`, `const`, `properties`, `required`,
 * `additionalProperties`, `items`, `prefixItems`, `minItems`/`maxItems`, `uniqueItems`,
 * `minLength`/`maxLength`, `minimum`/`maximum` and their exclusive forms, `multipleOf`, `format`,
 * `minProperties`, `anyOf`/`oneOf`/`allOf`, local `$ref`s) and ignores the rest (`pattern`, `not`,
 * conditionals). Where the schema asks for more than the limits allow (a `minLength` of 10⁹, arrays of 10⁷
 * items, deep nesting, `$ref` cycles) the value stops at the limits, so it may not satisfy that schema; any
 * input, even one that is not a schema, gives a value. The work done is bounded by the limits and by the
 * size of the schema itself.
 *
 * @since 0.1.0
 */
import * as CodePoints from "../text/codePoints.js"
import { generator } from "./random.js"

/**
 * The limits of a generated value.
 *
 * @since 0.1.0
 * @category models
 */
export interface Limits {
  /** The longest string, in code points. */
  readonly maxStringLength: number
  /** The most items of an array. */
  readonly maxItems: number
  /** The most properties of an object. */
  readonly maxProperties: number
  /** The deepest nesting of arrays and objects; deeper, an array is `[]` and an object `{}`. */
  readonly maxDepth: number
  /**
   * The most schema nodes read for the whole value, each `$ref` followed and each `allOf`, `anyOf` or
   * `oneOf` part counting as one; past it, a node counts as "anything". This bounds `$ref` cycles.
   */
  readonly maxSteps: number
  /** A budget of the value's size, roughly its JSON length in code points; past it, values are minimal. */
  readonly maxSize: number
}

/**
 * The limits used when none are given: strings of 1,024 code points, 64 items or properties, 8 levels,
 * 16,384 schema nodes read and about 64 KiB in all.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultLimits: Limits = {
  maxStringLength: 1024,
  maxItems: 64,
  maxProperties: 64,
  maxDepth: 8,
  maxSteps: 16384,
  maxSize: 64 * 1024
}

/**
 * How to make a value: where its randomness comes from, its limits, and a text to take values from.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Numbers in [0, 1): the only source of randomness (default: a generator seeded with `seed`). */
  readonly random?: (() => number) | undefined
  /** The seed of the default generator (default 0). */
  readonly seed?: number | undefined
  /** Limits that replace the defaults, each on its own. */
  readonly limits?: Partial<Limits> | undefined
  /**
   * A text to take values from where it can: quoted text or names for strings, numbers for numbers, and
   * the `enum` option it mentions. Only its first 4,096 code points are read.
   */
  readonly text?: string | undefined
}

type Schema = Readonly<Record<string, unknown>>

const isRecord = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const finite = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined

/** A count keyword read as a whole number in [0, cap], or `undefined` when absent or not a number. */
const count = (value: unknown, cap: number): number | undefined => {
  const n = finite(value)
  return n === undefined ? undefined : Math.min(cap, Math.max(0, Math.ceil(n)))
}

/** The JSON length of a value, or `undefined` when it has none (a cycle, a bigint). */
const jsonLength = (value: unknown): number | undefined => {
  try {
    return JSON.stringify(value)?.length
  } catch {
    return undefined
  }
}

/** How many entries of `enum`, `required` and the like are read: the rest of a long list is ignored. */
const listScan = 256

/** How deeply `allOf`, `anyOf` and `oneOf` are followed inside one another (a `$ref` cycle through them). */
const maxNesting = 32

/**
 * The keywords of one schema that the generator reads, copied out so that merging (`$ref`, `allOf`,
 * `anyOf`) costs a bounded amount whatever else the schema holds.
 */
interface View {
  readonly type?: unknown
  readonly enum?: ReadonlyArray<unknown> | undefined
  readonly const?: { readonly value: unknown } | undefined
  readonly format?: unknown
  readonly minLength?: unknown
  readonly maxLength?: unknown
  readonly minimum?: unknown
  readonly maximum?: unknown
  readonly exclusiveMinimum?: unknown
  readonly exclusiveMaximum?: unknown
  readonly multipleOf?: unknown
  readonly items?: unknown
  readonly prefixItems?: ReadonlyArray<unknown> | undefined
  readonly additionalItems?: unknown
  readonly minItems?: unknown
  readonly maxItems?: unknown
  readonly properties?: ReadonlyArray<readonly [string, unknown]> | undefined
  readonly required?: ReadonlyArray<string> | undefined
  readonly additionalProperties?: unknown
  readonly minProperties?: unknown
  readonly maxProperties?: unknown
}

const scalarKeywords = [
  "type",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "additionalItems",
  "minItems",
  "maxItems",
  "additionalProperties",
  "minProperties",
  "maxProperties"
] as const

/** What the caller's text offers: strings and numbers to use, read once from a bounded prefix. */
interface Hints {
  readonly lower: string
  readonly string: string | undefined
  readonly numbers: ReadonlyArray<number>
}

const hintTextLength = 4096

const hintsOf = (text: string | undefined): Hints => {
  if (text === undefined) return { lower: "", string: undefined, numbers: [] }
  const prefix = CodePoints.take(text, hintTextLength)
  const quoted = /"([^"\n]{1,256})"|“([^”\n]{1,256})”|'([^'\n]{1,256})'/u.exec(prefix)
  const proper = /(?<=[\p{L}\p{N},;:] )\p{Lu}[\p{L}-]{0,63}(?: \p{Lu}[\p{L}-]{0,63}){0,3}/u.exec(prefix)
  const flat = prefix.replace(/\s+/gu, " ").trim()
  const found = quoted?.[1] ?? quoted?.[2] ?? quoted?.[3] ?? proper?.[0] ?? (flat === "" ? undefined : flat)
  return {
    lower: prefix.toLowerCase(),
    string: found === undefined ? undefined : CodePoints.clip(found, 120),
    numbers: (prefix.match(/-?\d{1,15}(?:\.\d{1,15})?/gu) ?? []).slice(0, 64).map(Number)
  }
}

const letters = "abcdefghijklmnopqrstuvwxyz"

/**
 * A value of `schema` within the limits. The same schema, options and seed (or the same sequence of
 * `random` numbers) give the same value.
 *
 * @since 0.1.0
 * @category constructors
 */
export const generate = (schema: unknown, options: Options = {}): unknown => {
  const limits: Limits = { ...defaultLimits, ...options.limits }
  const random = options.random ?? generator(options.seed ?? 0)
  const hints = hintsOf(options.text)
  const root = schema
  let size = 0
  let steps = 0
  let nesting = 0
  // the first entries of each `properties` object, read once: enumerating a huge object is costly
  const entriesCache = new WeakMap<object, ReadonlyArray<readonly [string, unknown]>>()
  const ownCache = new WeakMap<object, View>()
  const enumCache = new WeakMap<object, { readonly scan: ReadonlyArray<unknown>; readonly mentioned: unknown }>()

  const spend = (n: number): void => {
    size += n
  }
  const left = (): number => Math.max(0, limits.maxSize - size)

  const entriesOf = (properties: unknown): ReadonlyArray<readonly [string, unknown]> => {
    if (!isRecord(properties)) return []
    const cached = entriesCache.get(properties)
    if (cached !== undefined) return cached
    const entries: Array<readonly [string, unknown]> = []
    for (const key in properties) {
      if (entries.length >= limits.maxProperties) break
      if (Object.hasOwn(properties, key)) entries.push([key, properties[key]])
    }
    entriesCache.set(properties, entries)
    return entries
  }

  /** A local reference (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer) into the root schema. */
  const resolve = (ref: string): unknown => {
    if (ref === "#") return root
    if (!ref.startsWith("#/")) return {}
    let node: unknown = root
    for (const raw of ref.slice(2).split("/", 32)) {
      let key: string
      try {
        key = decodeURIComponent(raw).replace(/~1/gu, "/").replace(/~0/gu, "~")
      } catch {
        return {}
      }
      if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return {}
      node = (node as Record<string, unknown>)[key]
    }
    return node
  }

  /** The keywords of one schema, without following anything. */
  const own = (schema: Schema): View => {
    const cached = ownCache.get(schema)
    if (cached !== undefined) return cached
    const view: Record<string, unknown> = {}
    for (const keyword of scalarKeywords) if (Object.hasOwn(schema, keyword)) view[keyword] = schema[keyword]
    if (Object.hasOwn(schema, "items")) view.items = schema.items
    if (Array.isArray(schema.enum) && schema.enum.length > 0) view.enum = schema.enum
    if (Object.hasOwn(schema, "const")) view.const = { value: schema.const }
    if (Array.isArray(schema.prefixItems)) view.prefixItems = schema.prefixItems
    if (isRecord(schema.properties)) view.properties = entriesOf(schema.properties)
    if (Array.isArray(schema.required)) {
      view.required = schema.required.slice(0, listScan).filter((key): key is string => typeof key === "string")
    }
    ownCache.set(schema, view)
    return view
  }

  /** Two views as one: `later`'s keywords win, properties and required names are joined. */
  const merge = (earlier: View, later: View): View => {
    const properties = earlier.properties === undefined
      ? later.properties
      : later.properties === undefined
      ? earlier.properties
      : [...later.properties, ...earlier.properties].slice(0, limits.maxProperties * 2)
    const required = earlier.required === undefined
      ? later.required
      : later.required === undefined
      ? earlier.required
      : [...earlier.required, ...later.required].slice(0, listScan)
    return { ...earlier, ...later, properties, required }
  }

  /**
   * The keywords that decide a value of `input`: its `$ref` followed (while the budget of steps lasts; a
   * cycle past it is "anything"), its `allOf` merged, its first non-null `anyOf`/`oneOf`
   * alternative taken.
   */
  const view = (input: unknown): View => {
    if (steps >= limits.maxSteps || nesting >= maxNesting) return {}
    steps++
    nesting++
    try {
      return viewOf(input)
    } finally {
      nesting--
    }
  }

  const viewOf = (input: unknown): View => {
    let schema: Schema = isRecord(input) ? input : {}
    while (typeof schema.$ref === "string") {
      if (steps >= limits.maxSteps) return {}
      steps++
      const target = resolve(schema.$ref)
      schema = isRecord(target) ? target : {}
    }
    let out = own(schema)
    if (Array.isArray(schema.allOf)) {
      for (const part of schema.allOf.slice(0, 16)) out = merge(view(part), out)
    }
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const alternatives = schema[keyword]
      if (Array.isArray(alternatives) && alternatives.length > 0) {
        const scan = alternatives.slice(0, 16)
        const chosen = scan.find((a) => !(isRecord(a) && a.type === "null")) ?? scan[0]
        out = merge(out, view(chosen))
      }
    }
    return out
  }

  const typeOf = (schema: View): string => {
    const declared = Array.isArray(schema.type)
      ? schema.type.slice(0, 16).find((t) => t !== "null") ?? schema.type[0]
      : schema.type
    if (typeof declared === "string") return declared
    if (schema.properties !== undefined || schema.required !== undefined || "additionalProperties" in schema) {
      return "object"
    }
    if ("items" in schema || schema.prefixItems !== undefined || "minItems" in schema) return "array"
    if ("minimum" in schema || "maximum" in schema || "multipleOf" in schema) return "number"
    return "string"
  }

  const formatted = (format: string, index: number): string | undefined => {
    const n = index + Math.floor(random() * 1000)
    switch (format) {
      case "date-time":
        return new Date(Date.UTC(2024, 0, 1 + (n % 365))).toISOString()
      case "date":
        return new Date(Date.UTC(2024, 0, 1 + (n % 365))).toISOString().slice(0, 10)
      case "time":
        return `${String(n % 24).padStart(2, "0")}:00:00Z`
      case "email":
        return `person${n}@example.com`
      case "uri":
      case "url":
        return `https://example.com/${n}`
      case "uuid":
        return `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0").slice(-12)}`
      default:
        return undefined
    }
  }

  const stringOf = (schema: View, index: number): string => {
    const cap = Math.min(limits.maxStringLength, left())
    const max = Math.min(count(schema.maxLength, cap) ?? cap, cap)
    const min = Math.min(count(schema.minLength, cap) ?? 0, max)
    const format = typeof schema.format === "string" ? formatted(schema.format, index) : undefined
    const base = format ?? hints.string ?? "value"
    let out = CodePoints.take(index === 0 || format !== undefined ? base : `${base} ${index + 1}`, max)
    const short = min - CodePoints.length(out, min)
    for (let i = 0; i < short; i++) out += letters[Math.floor(random() * letters.length)]
    spend(out.length + 2)
    return out
  }

  const numberOf = (schema: View, integer: boolean, index: number): number => {
    let low = finite(schema.minimum) ?? -Infinity
    let high = finite(schema.maximum) ?? Infinity
    const exclusiveLow = finite(schema.exclusiveMinimum)
    const exclusiveHigh = finite(schema.exclusiveMaximum)
    if (exclusiveLow !== undefined) low = Math.max(low, integer ? Math.floor(exclusiveLow) + 1 : exclusiveLow + 0.5)
    if (exclusiveHigh !== undefined) {
      high = Math.min(high, integer ? Math.ceil(exclusiveHigh) - 1 : exclusiveHigh - 0.5)
    }
    if (integer) {
      low = Math.ceil(low)
      high = Math.floor(high)
    }
    const wanted = integer ? hints.numbers.find(Number.isInteger) : hints.numbers[0]
    let value = (wanted ?? 1) + index
    if (value < low) value = low
    if (value > high) value = high
    const multiple = finite(schema.multipleOf)
    if (multiple !== undefined && multiple > 0) {
      const up = Math.ceil(value / multiple) * multiple
      value = Number.isFinite(up) && up <= high ? up : Math.floor(value / multiple) * multiple
    }
    if (!Number.isFinite(value)) value = 0
    if (integer) value = Math.round(value)
    spend(String(value).length)
    return value
  }

  const arrayOf = (schema: View, depth: number, index: number): Array<unknown> => {
    spend(2)
    if (depth + 1 >= limits.maxDepth) return []
    const tuple = schema.prefixItems ?? (Array.isArray(schema.items) ? schema.items : [])
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items
    const max = count(schema.maxItems, limits.maxItems) ?? limits.maxItems
    const min = Math.min(count(schema.minItems, limits.maxItems) ?? Math.min(1, max), max)
    const wanted = Math.max(min, Math.min(tuple.length, max))
    const out: Array<unknown> = []
    for (let i = 0; i < wanted && (i === 0 || left() > 0); i++) {
      out.push(valueOf(i < tuple.length ? tuple[i] : rest, depth + 1, index + i))
      spend(1)
    }
    return out
  }

  const objectOf = (schema: View, depth: number, index: number): Record<string, unknown> => {
    spend(2)
    const out: Record<string, unknown> = {}
    if (depth + 1 >= limits.maxDepth) return out
    const max = Math.min(limits.maxProperties, count(schema.maxProperties, limits.maxProperties) ?? Infinity)
    const properties = schema.properties ?? []
    let n = 0
    const full = (): boolean => n >= max || (n > 0 && left() <= 0)
    /** Adds a property unless the object is full; `schemaOf` is read only when it is added. */
    const add = (key: string, schemaOf: () => unknown): void => {
      if (full() || Object.hasOwn(out, key)) return
      spend(key.length + 4)
      const schema = schemaOf()
      // defineProperty: a property named `__proto__` is an own property like any other
      Object.defineProperty(out, key, {
        value: valueOf(schema, depth + 1, index),
        enumerable: true,
        writable: true,
        configurable: true
      })
      n++
    }
    // required names first, so that a bounded object keeps the ones that matter
    for (const key of schema.required ?? []) {
      if (full()) break
      add(key, () => properties.find(([name]) => name === key)?.[1] ?? {})
    }
    for (const [key, property] of properties) {
      if (full()) break
      add(key, () => property)
    }
    const minProperties = count(schema.minProperties, max) ?? 0
    const extra = schema.additionalProperties === false ? undefined : schema.additionalProperties ?? {}
    for (let i = 1; extra !== undefined && n < minProperties && !full() && i <= 2 * max; i++) {
      add(`property_${i}`, () => extra)
    }
    return out
  }

  const valueOf = (input: unknown, depth: number, index: number): unknown => {
    const schema = view(input)
    if (schema.enum !== undefined) {
      let options = enumCache.get(schema.enum)
      if (options === undefined) {
        const scan = schema.enum.slice(0, listScan)
        const mentioned = scan.find((option) =>
          typeof option === "string" && option !== "" && option.length <= 256 &&
          hints.lower.includes(option.toLowerCase())
        )
        options = { scan, mentioned }
        enumCache.set(schema.enum, options)
      }
      const chosen = index === 0 && options.mentioned !== undefined
        ? options.mentioned
        : options.scan[index % options.scan.length]
      spend(jsonLength(chosen) ?? 4)
      return chosen
    }
    if (schema.const !== undefined) {
      spend(jsonLength(schema.const.value) ?? 4)
      return schema.const.value
    }
    switch (typeOf(schema)) {
      case "integer":
        return numberOf(schema, true, index)
      case "number":
      case "float":
        return numberOf(schema, false, index)
      case "boolean":
        spend(5)
        return index % 2 === 0
      case "null":
        spend(4)
        return null
      case "array":
        return arrayOf(schema, depth, index)
      case "object":
        return objectOf(schema, depth, index)
      default:
        return stringOf(schema, index)
    }
  }

  return valueOf(schema, 0, 0)
}
