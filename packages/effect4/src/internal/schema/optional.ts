/**
 * Fields that may be left out. A request's optional fields are read as FastAPI/pydantic read them: an
 * explicit `null` is the same as leaving the field out. Real clients send `null` for fields they do not set
 * (the ai21 SDKs send `n: null`, `tools: null`, `requirements: null`, and the service returns
 * `tool_calls: null`). A field of an answer that the service may leave out has a value it stands for.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"

/**
 * An optional field that also accepts `null`, decoded as absent: the decoded value never holds the `null`,
 * so what is sent on is the field left out.
 */
export const optional = <S extends Schema.Top>(schema: S) =>
  Schema.optionalKey(Schema.NullishOr(schema)).pipe(
    Schema.decodeTo(Schema.optional(Schema.toType(schema)), {
      decode: SchemaGetter.transformOptional(Option.filter((value) => value !== null)),
      encode: SchemaGetter.passthroughSubtype()
    })
  )

/**
 * A field of an answer that the service may leave out (or send as `undefined`): decoded, and constructed,
 * as `value` then.
 */
export const withDefault = <S extends Schema.Top & Schema.WithoutConstructorDefault>(
  schema: S,
  value: S["Type"] & S["Encoded"]
) =>
  schema.pipe(
    Schema.withDecodingDefault(Effect.succeed(value)),
    Schema.withConstructorDefault(Effect.succeed(value))
  )
