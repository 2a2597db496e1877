/**
 * Server-sent events as the service frames them: `data: <json>` events separated by a blank line, ended by
 * `data: [DONE]`.
 */
import * as Stream from "effect/Stream"

const encoder = new TextEncoder()

/** One event carrying a JSON value. */
export const event = (value: unknown): Uint8Array => encoder.encode(`data: ${JSON.stringify(value)}\n\n`)

/** The event that ends a stream. */
export const done: Uint8Array = encoder.encode("data: [DONE]\n\n")

/** The events of `values` followed by `[DONE]`. */
export const encode = <E, R>(values: Stream.Stream<unknown, E, R>): Stream.Stream<Uint8Array, E, R> =>
  Stream.concat(Stream.map(values, event), Stream.succeed(done))
