/**
 * JSON Schemas as a hostile caller sends them, for property tests of the reference service: huge lengths,
 * counts and bounds, deep nesting, `$ref` cycles, combinators, and values that are not schemas at all.
 */
import * as fc from "fast-check"

const huge = fc.oneof(
  fc.constantFrom(0, 1, 2, 100, 1e7, 1e9, 1e300, -5, 0.5, Number.MAX_SAFE_INTEGER),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 3 })
)

const refs = fc.constantFrom("#", "#/$defs/a", "#/$defs/b", "#/properties/x", "#/items", "#/nope", "http://x", "#/%zz")

/** Schemas of every kind a caller can send, hostile ones included (no `enum`/`const`: those are copied). */
export const hostileSchema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.constant({}), fc.boolean(), fc.constant(null), fc.integer(), fc.string(), fc.constant([])),
    fc.record({
      type: fc.oneof(
        fc.constantFrom("string", "integer", "number", "float", "boolean", "null", "array", "object", "nope"),
        fc.array(fc.constantFrom("null", "string", "array", "object"), { maxLength: 3 })
      ),
      minLength: huge,
      maxLength: huge,
      minItems: huge,
      maxItems: huge,
      minProperties: huge,
      maxProperties: huge,
      minimum: huge,
      maximum: huge,
      exclusiveMinimum: huge,
      multipleOf: huge,
      uniqueItems: fc.boolean(),
      items: tie("schema"),
      prefixItems: fc.array(tie("schema"), { maxLength: 3 }),
      properties: fc.dictionary(fc.string({ maxLength: 4 }), tie("schema"), { maxKeys: 4 }),
      required: fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.constant("__proto__"), fc.integer()), {
        maxLength: 4
      }),
      additionalProperties: fc.oneof(fc.boolean(), tie("schema")),
      $ref: refs,
      $defs: fc.record({ a: tie("schema"), b: tie("schema") }),
      allOf: fc.array(tie("schema"), { maxLength: 3 }),
      anyOf: fc.array(tie("schema"), { maxLength: 3 }),
      oneOf: fc.array(tie("schema"), { maxLength: 3 }),
      format: fc.constantFrom("date-time", "date", "time", "email", "uri", "uuid", "other")
    }, { requiredKeys: [] })
  )
})).schema
