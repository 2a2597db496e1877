/**
 * Objects of an answer that keep every field: the fields a schema names are decoded by their schemas, and
 * any other field is kept as the service sent it, so a field the service adds reaches the caller.
 */
import * as Schema from "effect/Schema"

const rest = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** A struct of `fields` that keeps the fields it does not name. */
export const openStruct = <Fields extends Schema.Struct.Fields>(fields: Fields) => Schema.Struct(fields, rest)
