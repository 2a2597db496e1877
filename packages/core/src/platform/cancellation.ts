/**
 * How the Promise API's calls stop: by their own `AbortSignal` or by the client's `close()`, whichever comes
 * first; a stream's iterable ends with the signal's reason, and one asked for after `close()` with
 * `ClientClosed`.
 *
 * @since 1.0.0
 */
import { ClientClosed } from "../failure/ClientClosed.js"

/** The signal a call stops by: its own, if any, joined with the client's closing. */
export const callSignal = (closing: AbortSignal, signal: AbortSignal | undefined): AbortSignal =>
  signal === undefined ? closing : AbortSignal.any([signal, closing])

/** An iterable whose first step rejects: the client was closed before it was asked for. */
export const closedIterable = <A>(): AsyncIterable<A> => ({
  [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new ClientClosed(false)) })
})

/** The elements of `iterable` until the signal aborts; then its reason is thrown (which ends `iterable`). */
export const untilAborted = <A>(iterable: AsyncIterable<A>, signal: AbortSignal): AsyncIterable<A> => ({
  async *[Symbol.asyncIterator]() {
    if (signal.aborted) throw signal.reason
    for await (const element of iterable) {
      if (signal.aborted) throw signal.reason
      yield element
    }
  }
})
