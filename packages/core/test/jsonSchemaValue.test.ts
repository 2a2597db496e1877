/**
 * The JSON Schema value generator: whatever the schema asks (huge lengths, counts and nesting, `$ref`
 * cycles, garbage), the value stays within its limits and the work done stays bounded; a schema that the
 * limits allow gets a value that satisfies it.
 */
import AjvModule from "ajv"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as JsonSchemaValue from "../src/reference/jsonSchemaValue.js"
import { hostileSchema } from "./fixtures/hostileSchema.js"

const Ajv = (AjvModule as any).default ?? AjvModule
const ajv = new Ajv({ strict: false, validateFormats: false })

const limits = JsonSchemaValue.defaultLimits

/** Depth, longest string, most items and most properties of a JSON value. */
const measure = (value: unknown): { depth: number; string: number; items: number; properties: number } => {
  if (typeof value === "string") return { depth: 0, string: [...value].length, items: 0, properties: 0 }
  if (typeof value !== "object" || value === null) return { depth: 0, string: 0, items: 0, properties: 0 }
  const children = Array.isArray(value) ? value : Object.values(value)
  const inner = children.map(measure)
  return {
    depth: 1 + Math.max(0, ...inner.map((m) => m.depth)),
    string: Math.max(0, ...inner.map((m) => m.string)),
    items: Math.max(Array.isArray(value) ? value.length : 0, ...inner.map((m) => m.items)),
    properties: Math.max(Array.isArray(value) ? 0 : children.length, ...inner.map((m) => m.properties))
  }
}

/** Wraps a schema so that every read of it is counted: the work the generator does. */
const counted = (schema: unknown) => {
  let reads = 0
  const proxies = new WeakMap<object, object>()
  const wrap = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value
    const known = proxies.get(value)
    if (known !== undefined) return known
    const proxy = new Proxy(value, {
      get: (target, key, receiver) => {
        reads++
        return wrap(Reflect.get(target, key, receiver))
      },
      has: (target, key) => {
        reads++
        return Reflect.has(target, key)
      },
      getOwnPropertyDescriptor: (target, key) => {
        reads++
        return Reflect.getOwnPropertyDescriptor(target, key)
      },
      ownKeys: (target) => {
        const keys = Reflect.ownKeys(target)
        reads += keys.length
        return keys
      }
    })
    proxies.set(value, proxy)
    return proxy
  }
  return { schema: wrap(schema), reads: () => reads }
}

describe("JsonSchemaValue.generate", () => {
  it("stays within its limits whatever the schema asks, and reads a bounded part of it", () => {
    fc.assert(
      fc.property(hostileSchema, fc.integer(), (schema, seed) => {
        const { reads, schema: watched } = counted(schema)
        const value = JsonSchemaValue.generate(watched, { seed, text: "Find \"Lyon\" for 3 days" })
        const json = JSON.stringify(value) ?? ""
        // one string may overshoot the size budget when it is made, and each open container adds a little
        expect(json.length).toBeLessThanOrEqual(limits.maxSize + 6 * limits.maxStringLength)
        const m = measure(value)
        expect(m.depth).toBeLessThanOrEqual(limits.maxDepth)
        expect(m.string).toBeLessThanOrEqual(limits.maxStringLength)
        expect(m.items).toBeLessThanOrEqual(limits.maxItems)
        expect(m.properties).toBeLessThanOrEqual(limits.maxProperties)
        expect(reads()).toBeLessThanOrEqual(64 * limits.maxSteps)
      }),
      { numRuns: 300 }
    )
  })

  it("gives the same value for the same schema and seed", () => {
    fc.assert(
      fc.property(hostileSchema, fc.integer(), (schema, seed) => {
        expect(JsonSchemaValue.generate(schema, { seed })).toStrictEqual(JsonSchemaValue.generate(schema, { seed }))
      }),
      { numRuns: 100 }
    )
  })

  it("stops at the limits on the schemas that used to crash the service", () => {
    const long = JsonSchemaValue.generate({ type: "string", minLength: 1e9 }) as string
    expect(long).toHaveLength(limits.maxStringLength)
    expect(JsonSchemaValue.generate({ type: "array", minItems: 1e7 })).toHaveLength(limits.maxItems)
    let nested: unknown = { type: "string" }
    for (let i = 0; i < 5; i++) nested = { type: "array", minItems: 100, items: nested }
    const deep = JsonSchemaValue.generate(nested)
    expect(JSON.stringify(deep).length).toBeLessThanOrEqual(limits.maxSize + 6 * limits.maxStringLength)
    const wide = JsonSchemaValue.generate({ type: "object", minProperties: 1e9 }) as object
    expect(Object.keys(wide)).toHaveLength(limits.maxProperties)
    const cycle = JsonSchemaValue.generate({
      type: "object",
      properties: { self: { $ref: "#" }, list: { type: "array", items: { $ref: "#" }, minItems: 3 } },
      required: ["self", "list"]
    })
    expect(measure(cycle).depth).toBeLessThanOrEqual(limits.maxDepth)
    expect(
      JsonSchemaValue.generate({ $ref: "#/$defs/a", $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } } })
    )
      .toBe("value")
    for (const garbage of [null, 42, "x", [], true, false, { type: 7 }, { properties: [1] }, { required: "a" }]) {
      expect(() => JSON.stringify(JsonSchemaValue.generate(garbage))).not.toThrow()
    }
  })

  it("reads a schema with a hundred thousand properties a bounded number of times", () => {
    const properties: Record<string, unknown> = {}
    for (let i = 0; i < 100_000; i++) properties[`p${i}`] = { type: "string", enum: [`a${i}`, `b${i}`] }
    const wide = { type: "object", properties, required: Object.keys(properties) }
    const schema = { type: "array", minItems: 1e6, items: { type: "array", minItems: 1e6, items: wide } }
    const { reads, schema: watched } = counted(schema)
    const value = JsonSchemaValue.generate(watched)
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(limits.maxSize + 6 * limits.maxStringLength)
    // enumerating the properties once is the only read proportional to the schema's size
    expect(reads()).toBeLessThanOrEqual(100_000 + 64 * limits.maxSteps)
  })

  it("follows its own limits when given", () => {
    const tight = { maxStringLength: 5, maxItems: 2, maxProperties: 2, maxDepth: 2, maxSize: 100 }
    fc.assert(
      fc.property(hostileSchema, (schema) => {
        const m = measure(JsonSchemaValue.generate(schema, { limits: tight }))
        expect(m.string).toBeLessThanOrEqual(5)
        expect(m.items).toBeLessThanOrEqual(2)
        expect(m.properties).toBeLessThanOrEqual(2)
        expect(m.depth).toBeLessThanOrEqual(2)
      }),
      { numRuns: 100 }
    )
  })

  /** Schemas the limits allow: every value made for them satisfies them. */
  const fittingSchema: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
    schema: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.record({
        type: fc.constant("string"),
        minLength: fc.integer({ min: 0, max: 50 }),
        maxLength: fc.integer({ min: 50, max: 500 })
      }, { requiredKeys: ["type"] }),
      fc.integer({ min: -1000, max: 1000 }).chain((low) =>
        fc.record({
          type: fc.constantFrom("integer", "number"),
          minimum: fc.constant(low),
          maximum: fc.integer({ min: low, max: low + 1000 })
        }, { requiredKeys: ["type"] })
      ),
      fc.record({ type: fc.constant("boolean") }),
      fc.record({ type: fc.constant("null") }),
      fc.record({ enum: fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 4 }) }),
      fc.record({ type: fc.constant("array"), items: tie("schema"), minItems: fc.integer({ min: 0, max: 8 }) }, {
        requiredKeys: ["type", "items"]
      }),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), tie("schema"), { maxKeys: 5 }).chain((properties) =>
        fc.subarray(Object.keys(properties)).map((required) => ({
          type: "object",
          properties,
          required,
          additionalProperties: false
        }))
      ),
      fc.tuple(tie("schema"), tie("schema")).map(([a, b]) => ({ anyOf: [a, b] }))
    )
  })).schema

  /** A fitting schema, or one behind a `$ref` to its root's `$defs`. */
  const fittingRoot = fc.oneof(
    fittingSchema,
    fittingSchema.map((inner) => ({ $ref: "#/$defs/inner", $defs: { inner } }))
  )

  it("satisfies every schema that the limits allow", () => {
    fc.assert(
      fc.property(fittingRoot, fc.integer(), fc.string(), (schema, seed, text) => {
        const value = JsonSchemaValue.generate(schema, { seed, text })
        const validate = ajv.compile(schema)
        expect(validate(value), JSON.stringify({ value, errors: validate.errors })).toBe(true)
      }),
      { numRuns: 300 }
    )
  })

  it("takes values from the text: quoted words, names, numbers and the enum option it mentions", () => {
    const schema = {
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer", minimum: 1, maximum: 10 },
        unit: { type: "string", enum: ["celsius", "fahrenheit"] },
        at: { type: "string", format: "date-time" }
      }
    }
    const value = JsonSchemaValue.generate(schema, { text: "The weather in Lyon in 3 days, in fahrenheit?" })
    expect(value).toMatchObject({ city: "Lyon", days: 3, unit: "fahrenheit" })
    expect(Number.isNaN(Date.parse((value as { at: string }).at))).toBe(false)
    expect(JsonSchemaValue.generate({ type: "string" }, { text: "say \"hello there\" now" })).toBe("hello there")
  })
})
