/**
 * Optional request fields as FastAPI/pydantic treat them: an explicit `null` is the same as leaving the
 * field out. Real clients send `null` for fields they do not set (the ai21 SDKs send `n: null`,
 * `tools: null`, `requirements: null`, and the service returns `tool_calls: null`).
 */
import * as Schema from "effect/Schema"

/**
 * An optional field that also accepts `null`, decoded as absent: the decoded value never holds the `null`,
 * so what is sent on is the field left out.
 */
export const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { nullable: true })
