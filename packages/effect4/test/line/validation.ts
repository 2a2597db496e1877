/** Request validation as the client runs it, for the conformance suite's validation tests. */
import type * as Schema from "effect/Schema"
import type { Issue } from "../../src/internal/schema/issues.js"
import { requestDecoder } from "../../src/internal/schema/validate.js"
import type { Outcome } from "./index.js"

/** A request schema, as the client validates requests with. */
export type RequestSchema = Schema.Top & { readonly DecodingServices: never }

/** What a request schema decodes to. */
export type RequestType<S extends RequestSchema> = S["Type"]

/** The decoded request, or every issue found, as the client's schema validation gives them. */
export const validateRequest = <S extends RequestSchema>(
  schema: S,
  input: unknown
): Outcome<RequestType<S>, ReadonlyArray<Issue>> => requestDecoder(schema)(input)
