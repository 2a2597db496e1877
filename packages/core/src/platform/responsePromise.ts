/**
 * The Promise API's answers with their metadata, shaped as openai-node's `APIPromise`: a call returns a
 * promise of its value that also offers `withResponse()` (the value as `data`, the answer's metadata as
 * `response`, and `request_id`) and `asResponse()` (the metadata alone). The call is made once, when it is
 * made, whichever of them is used. A stream returns an iterable that also offers `withResponse()`: the
 * stream is opened then, and `data` iterates it (iterate it to its end, or leave the loop, to release the
 * connection; the client's `close()` releases it too).
 *
 * The SDK's transports do not all give a fetch `Response`, so `response` is what every transport gives:
 * the status, the headers (names in lower case, scrubbed of the request's secrets), the request id and the
 * rate-limit figures (`ResponseMetadata`); it is known once the body has been read and decoded.
 *
 * @since 1.0.0
 */
import type { ResponseMetadata } from "../wire/responseMetadata.js"

/**
 * A call's value with its answer's metadata, as `withResponse()` resolves: the value as `data`, the
 * metadata as `response`, and the request id the service gave the answer as `request_id`.
 *
 * @since 1.0.0
 * @category models
 */
export interface DataWithResponse<A> {
  readonly data: A
  readonly response: ResponseMetadata
  readonly request_id: string | undefined
}

/** An answer as the Effect API's `…WithResponse` variants give it: the value with its metadata. */
type Answer<A> = ResponseMetadata & { readonly value: A }

const metadataOf = <A>(answer: Answer<A>): ResponseMetadata => {
  const { value: _value, ...metadata } = answer
  return metadata
}

const withResponseOf = <A>(answer: Answer<A>): DataWithResponse<A> => ({
  data: answer.value,
  response: metadataOf(answer),
  request_id: answer.requestId
})

/**
 * A promise of a call's value that can also give the answer's metadata: awaited (or `then`), it resolves
 * with the value and rejects with the call's error, as a plain promise does.
 *
 * @since 1.0.0
 * @category models
 */
export class ResponsePromise<A> extends Promise<A> {
  // `then` and friends of derived promises are plain promises', not this class's
  static override get [Symbol.species]() {
    return Promise
  }

  readonly #answer: Promise<Answer<A>>
  #value: Promise<A> | undefined

  constructor(answer: Promise<Answer<A>>) {
    super((resolve) => resolve(undefined as A))
    this.#answer = answer
  }

  /** The value, with the answer's metadata (`response`) and its request id (`request_id`). */
  withResponse(): Promise<DataWithResponse<A>> {
    return this.#answer.then(withResponseOf)
  }

  /** The answer's metadata alone: status, headers, request id and rate-limit figures. */
  asResponse(): Promise<ResponseMetadata> {
    return this.#answer.then(metadataOf)
  }

  #parsed(): Promise<A> {
    return this.#value ??= this.#answer.then((answer) => answer.value)
  }

  // the rejection reason is `any`, as the standard `Promise` types it, so callers read it as they always have
  override then<T = A, U = never>(
    onfulfilled?: ((value: A) => T | PromiseLike<T>) | null,
    onrejected?: ((reason: any) => U | PromiseLike<U>) | null
  ): Promise<T | U> {
    return this.#parsed().then(onfulfilled, onrejected)
  }

  override catch<U = never>(onrejected?: ((reason: any) => U | PromiseLike<U>) | null): Promise<A | U> {
    return this.#parsed().catch(onrejected)
  }

  override finally(onfinally?: (() => void) | null): Promise<A> {
    return this.#parsed().finally(onfinally)
  }
}

/**
 * A stream of a call's elements that can also give the answer's metadata: iterated, it opens the stream
 * and gives its elements; `withResponse()` opens it at once and resolves, when the answer has started,
 * with its metadata and the elements as `data`. Once `withResponse()` has been called, iterating this
 * iterable iterates that same `data`: the request is sent once.
 *
 * @since 1.0.0
 * @category models
 */
export class ResponseStream<A> implements AsyncIterable<A> {
  readonly #iterate: () => AsyncIterable<A>
  readonly #open: () => Promise<Answer<AsyncIterable<A>>>
  #opened: Promise<Answer<AsyncIterable<A>>> | undefined

  constructor(iterate: () => AsyncIterable<A>, open: () => Promise<Answer<AsyncIterable<A>>>) {
    this.#iterate = iterate
    this.#open = open
  }

  /** Opens the stream: its elements as `data`, with the answer's metadata and request id. */
  withResponse(): Promise<DataWithResponse<AsyncIterable<A>>> {
    return this.#answer().then(withResponseOf)
  }

  #answer(): Promise<Answer<AsyncIterable<A>>> {
    return this.#opened ??= this.#open()
  }

  [Symbol.asyncIterator](): AsyncIterator<A> {
    const opened = this.#opened
    if (opened === undefined) return this.#iterate()[Symbol.asyncIterator]()
    return (async function*() {
      yield* (await opened).value
    })()
  }
}
