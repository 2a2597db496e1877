/** Request validation as the client runs it, for the conformance suite's validation tests. */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { fromParseError, type Issue } from "../../src/internal/schema/issues.js"
import { fromEither, type Outcome } from "./index.js"

/** A request schema, as the client validates requests with. */
export type RequestSchema = Schema.Schema<any, any, never>

/** What a request schema decodes to. */
export type RequestType<S extends RequestSchema> = Schema.Schema.Type<S>

/** The options the client validates requests with. */
const parseOptions = { errors: "all", onExcessProperty: "preserve" } as const

/** The decoded request, or every issue found, as the client's schema validation gives them. */
export const validateRequest = <S extends RequestSchema>(
  schema: S,
  input: unknown
): Outcome<RequestType<S>, ReadonlyArray<Issue>> =>
  fromEither(Either.mapLeft(Schema.decodeUnknownEither(schema, parseOptions)(input), fromParseError))
