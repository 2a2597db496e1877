/**
 * What one request of an operation is: its method, path and body, the decoder of its answer, and what the
 * answer said besides its value.
 */
import type * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import type * as Stream from "effect/Stream"
import type { ResponseMetadata } from "studio-effect-core/wire/responseMetadata"

/** One request with a JSON answer. */
export interface JsonRequest<A, I> {
  /** The operation's name, used in errors and spans: `chat.create`, `maestro.create`, ... */
  readonly operation: string
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  /** The path after the base URL, already URL-encoded. */
  readonly path: string
  /** The JSON body. */
  readonly body?: unknown
  /** A body sent as it is (a multipart form), instead of a JSON body. */
  readonly raw?: RawBody | undefined
  readonly response: Schema.Codec<A, I>
  /** The decoder of the answer, made once by its operation; one from `response` when not given. */
  readonly decode?: ResponseDecoder<A> | undefined
  /** The answer is JSON Lines: its values, one a line, are decoded as an array. */
  readonly lines?: boolean | undefined
  /**
   * A create the service bills or stores: retried only where the service cannot have acted, unless the
   * call's settings say `retryCreates`.
   */
  readonly creates?: boolean | undefined
}

/**
 * An operation's value with what its answer said about it: the status, the headers (names in lower case,
 * scrubbed of the request's secrets), the request id the service gave it, and the rate-limit figures of
 * the key. For a stream, the value is the stream of its events and the rest is what the answer said when
 * it opened.
 */
export interface WithResponse<A> extends ResponseMetadata {
  readonly value: A
}

/**
 * A body of bytes with its content type, such as a `multipart/form-data` form: held whole (`bytes`), or
 * read as it is sent (`stream`), which is sent once and never retried (it cannot be read again).
 */
export type RawBody =
  | { readonly bytes: Uint8Array; readonly contentType: string }
  | { readonly stream: Stream.Stream<Uint8Array, unknown>; readonly contentType: string }

/** One request whose answer is a byte stream (server-sent events). */
export interface StreamRequest {
  readonly operation: string
  readonly path: string
  readonly body: unknown
}

/** One request whose answer is read as bytes (a file's download). */
export interface BytesRequest {
  readonly operation: string
  readonly path: string
  /** The most bytes of the answer read: a longer one fails with `DecodeError` naming `maxDownloadSize`. */
  readonly maxSize: number
}

/** A decoder of an answer's JSON; synchronous, so no effect is built per answer. */
export type ResponseDecoder<A> = (input: unknown) => Result.Result<A, SchemaIssue.Issue>

/** The decoder of a response schema, for a request whose operation brings none of its own. */
export const responseDecoder = <A, I>(schema: Schema.Codec<A, I>): ResponseDecoder<A> =>
  SchemaParser.decodeUnknownResult(schema)
