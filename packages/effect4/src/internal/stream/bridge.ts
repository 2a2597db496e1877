/**
 * Streams consumed outside Effect, run by Effect's own `Stream.toAsyncIterableWith` and
 * `Stream.toReadableStreamWith` with the services of a `Context` or of a `ManagedRuntime`. `Chat.stream`
 * emits one array per network read, and both pull one array at a time: a consumer outside Effect runs
 * one pull per read and takes the read's elements from an array, so nothing per element crosses between
 * Effect and the caller.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as ManagedRuntime from "effect/ManagedRuntime"
import * as Stream from "effect/Stream"

/** Where the stream runs: a `Context` (for example from `Effect.context()`) or a `ManagedRuntime`. */
export type AnyRuntime<R> = Context.Context<R> | ManagedRuntime.ManagedRuntime<R, any>

/** A stream with its services, and the context it runs in. */
const withServices = <A, E, R>(
  stream: Stream.Stream<A, E, R>,
  runtime: AnyRuntime<R>
): readonly [Stream.Stream<A, unknown>, Context.Context<never>] =>
  // told apart by the `Context`, so that importing the package does not load `effect/ManagedRuntime`
  Context.isContext(runtime)
    ? [Stream.provideContext(stream, runtime as Context.Context<R>), runtime as Context.Context<never>]
    : [
      Stream.unwrap(Effect.map(runtime.contextEffect, (context) => Stream.provideContext(stream, context))),
      Context.empty()
    ]

/** A stream as an `AsyncIterable`: one pull per array of the stream, its elements handed out one by one. */
export const toAsyncIterable = <A, E, R>(stream: Stream.Stream<A, E, R>, runtime: AnyRuntime<R>): AsyncIterable<A> => {
  const [provided, context] = withServices(stream, runtime)
  return Stream.toAsyncIterableWith(provided, context)
}

/**
 * A stream as a web `ReadableStream`: one pull of the stream per pull of the `ReadableStream` (nothing is
 * read before the consumer asks), its elements enqueued together. A failure errors it with the stream's
 * error; cancelling it interrupts the stream, which releases what it holds.
 */
export const toReadableStream = <A, E, R>(
  stream: Stream.Stream<A, E, R>,
  runtime: AnyRuntime<R>
): ReadableStream<A> => {
  const [provided, context] = withServices(stream, runtime)
  return Stream.toReadableStreamWith(provided, context, { strategy: { highWaterMark: 0 } })
}
