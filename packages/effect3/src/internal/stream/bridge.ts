/**
 * A stream pulled from outside Effect, one Stream chunk at a time. `Chat.stream` emits one chunk per
 * network read, so a consumer outside Effect runs one effect per read and takes the read's elements from
 * an array: nothing per element crosses between Effect and the caller.
 */
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"

/** Where the stream runs: a `Runtime` (for example from `Effect.runtime()`) or a `ManagedRuntime`. */
export type AnyRuntime<R> = Runtime.Runtime<R> | ManagedRuntime.ManagedRuntime<R, any>

const runnerOf = <R>(runtime: AnyRuntime<R>) =>
  "runPromiseExit" in runtime
    ? <A, E>(effect: Effect.Effect<A, E, R>) => runtime.runPromiseExit(effect)
    : <A, E>(effect: Effect.Effect<A, E, R>) => Runtime.runPromiseExit(runtime)(effect)

/** Reads of a stream: `read` gives the next chunk's elements, or `undefined` at the end; `close` stops it. */
export interface Reads<A> {
  readonly read: () => Promise<ReadonlyArray<A> | undefined>
  readonly close: () => Promise<void>
}

/** Starts pulling `stream` on `runtime`; the stream's resources are released at its end, failure or `close`. */
export const reads = <A, E, R>(stream: Stream.Stream<A, E, R>, runtime: AnyRuntime<R>): Reads<A> => {
  const run = runnerOf(runtime)
  const scope = Effect.runSync(Scope.make())
  let pull: Effect.Effect<ReadonlyArray<A>, Option.Option<E>, R> | undefined
  let finished = false
  const close = async (): Promise<void> => {
    if (finished) return
    finished = true
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
  const start = Effect.map(
    Scope.extend(Stream.toPull(stream), scope),
    (chunks) => (pull = Effect.map(chunks, Chunk.toReadonlyArray))
  )
  const read = async (): Promise<ReadonlyArray<A> | undefined> => {
    while (!finished) {
      const exit = await run(pull ?? Effect.flatten(start))
      if (Exit.isSuccess(exit)) {
        if (exit.value.length > 0) return exit.value
        continue
      }
      await close()
      const failure = Cause.failureOption(exit.cause)
      if (failure._tag === "None") throw Cause.squash(exit.cause) // a defect or an interruption
      if (Option.isNone(failure.value)) return undefined // the end of the stream
      throw failure.value.value // the stream's typed error, a `StudioError` for `Chat.stream`
    }
    return undefined
  }
  return { read, close }
}

/** A stream as an `AsyncIterable`: one effect per chunk, its elements handed out from an array. */
export const toAsyncIterable = <A, E, R>(stream: Stream.Stream<A, E, R>, runtime: AnyRuntime<R>): AsyncIterable<A> => ({
  [Symbol.asyncIterator]: (): AsyncIterator<A> => {
    const source = reads(stream, runtime)
    let buffer: ReadonlyArray<A> = []
    let index = 0
    return {
      next: async () => {
        while (index >= buffer.length) {
          const next = await source.read()
          if (next === undefined) return { done: true, value: undefined }
          buffer = next
          index = 0
        }
        return { done: false, value: buffer[index++]! }
      },
      return: async () => {
        await source.close()
        return { done: true, value: undefined }
      }
    }
  }
})

/** A stream as a web `ReadableStream` of `map`'s output: one enqueue per chunk of the stream. */
export const toReadableStream = <A, E, R, B>(
  stream: Stream.Stream<A, E, R>,
  runtime: AnyRuntime<R>,
  map: (elements: ReadonlyArray<A>) => ReadonlyArray<B>,
  end?: { readonly onEnd?: () => B | undefined; readonly onError?: (error: unknown) => B | undefined }
): ReadableStream<B> => {
  const source = reads(stream, runtime)
  return new ReadableStream<B>({
    pull: async (controller) => {
      let elements: ReadonlyArray<A> | undefined
      try {
        elements = await source.read()
      } catch (error) {
        const last = end?.onError?.(error)
        if (last === undefined) {
          controller.error(error)
        } else {
          controller.enqueue(last)
          controller.close()
        }
        return
      }
      if (elements === undefined) {
        const last = end?.onEnd?.()
        if (last !== undefined) controller.enqueue(last)
        controller.close()
        return
      }
      for (const output of map(elements)) controller.enqueue(output)
    },
    cancel: () => source.close()
  }, { highWaterMark: 0 })
}
