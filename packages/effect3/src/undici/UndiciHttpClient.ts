/**
 * An `HttpClient` over `undici`, for Node: the fastest transport for the Studio client. Beside the
 * platform's interface, its responses give the client their body to read in the reading fiber, one
 * network read at a time, with no stream, queue or fiber per read, and the idle timeout without a reader
 * fiber. On `NodeHttpClient.layerUndici` or `FetchHttpClient.layer` the client works the same, at the
 * platform's cost per read (see `bench/HISTORY.md`, "An SDK transport").
 *
 * It makes no span of its own: the client's span `studio.<operation>` covers each request, and its trace
 * context is sent as `traceparent` and `b3`. Redirects are returned, not followed. A URL's `#fragment` is
 * not sent, as no HTTP client sends it.
 *
 * @since 0.1.0
 */
import * as Cookies from "@effect/platform/Cookies"
import * as Headers from "@effect/platform/Headers"
import type * as HttpBody from "@effect/platform/HttpBody"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Effect from "effect/Effect"
import * as Inspectable from "effect/Inspectable"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { Readable } from "node:stream"
import * as Undici from "undici"
import { AbortableTypeId, RequestAbort } from "../internal/http/requestAbort.js"
import { type BodyReader, BodyReaderTypeId, type HasBodyReader, makeBodyReader } from "../internal/stream/bodyReader.js"
import { streamOf } from "../internal/stream/read.js"

/**
 * The client over `dispatcher` (an `undici` `Agent`, `Pool` or `Client`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (dispatcher: Undici.Dispatcher): HttpClient.HttpClient =>
  Object.assign(
    HttpClient.makeWith<never, never, HttpClientError.HttpClientError, never>(
      (effect) => Effect.flatMap(effect, (request) => send(dispatcher, request)),
      Effect.succeed
    ),
    { [AbortableTypeId]: true }
  )

/**
 * The client over its own `undici` `Agent` (keep-alive connections), closed with the layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<HttpClient.HttpClient> = Layer.scoped(
  HttpClient.HttpClient,
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => new Undici.Agent()),
      (agent) => Effect.promise(() => agent.destroy())
    ),
    make
  )
)

const send = (
  dispatcher: Undici.Dispatcher,
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> => {
  const url = UrlParams.makeUrl(request.url, request.urlParams, request.hash)
  if (url._tag === "Left") {
    return Effect.fail(new HttpClientError.RequestError({ request, reason: "InvalidUrl", cause: url.left }))
  }
  return Effect.flatMap(
    Effect.zip(bodyOf(request.body), Effect.serviceOption(RequestAbort)),
    ([body, slot]) =>
      Effect.async<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>((resume) => {
        const controller = new AbortController()
        // the client's attempt timeout ends the request, its body included, through this
        if (slot._tag === "Some") slot.value.abort = () => controller.abort()
        dispatcher.request({
          signal: controller.signal,
          method: request.method,
          headers: request.headers,
          origin: url.right.origin,
          // a fragment is the client's own: it is never sent
          path: url.right.pathname + url.right.search,
          body,
          // timeouts are the client's (per attempt, and the idle timeout of streams)
          headersTimeout: 0,
          bodyTimeout: 0
        }).then(
          (source) => resume(Effect.succeed(new UndiciResponse(request, source))),
          (cause) => resume(Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", cause })))
        )
        return Effect.sync(() => controller.abort())
      })
  )
}

type RequestBody = Exclude<Undici.Dispatcher.DispatchOptions["body"], undefined>

const bodyOf = (body: HttpBody.HttpBody): Effect.Effect<RequestBody> => {
  switch (body._tag) {
    case "Empty":
      return Effect.succeed(null)
    case "Uint8Array":
      return Effect.succeed(body.body)
    case "Raw":
      return Effect.succeed(body.body as RequestBody)
    case "FormData": {
      // the global FormData is Node's own undici's, which this undici's dispatcher cannot send
      const form = new Undici.FormData()
      for (const [name, value] of body.formData) form.append(name, value)
      return Effect.succeed(form)
    }
    case "Stream":
      return Effect.map(Stream.toAsyncIterableEffect(body.stream), (iterable) => Readable.from(iterable))
  }
}

class UndiciResponse extends Inspectable.Class implements HttpClientResponse.HttpClientResponse, HasBodyReader {
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  readonly [HttpClientResponse.TypeId]: HttpClientResponse.TypeId = HttpClientResponse.TypeId

  constructor(
    readonly request: HttpClientRequest.HttpClientRequest,
    private readonly source: Undici.Dispatcher.ResponseData
  ) {
    super()
  }

  [BodyReaderTypeId]<E>(onError: (cause: unknown) => E, now: () => number): BodyReader<E> {
    return makeBodyReader(this.source.body, onError, now)
  }

  get status(): number {
    return this.source.statusCode
  }

  private cachedHeaders: Headers.Headers | undefined = undefined
  get headers(): Headers.Headers {
    return this.cachedHeaders ??= Headers.fromInput(this.source.headers)
  }

  get cookies(): Cookies.Cookies {
    const header = this.source.headers["set-cookie"]
    return header === undefined ? Cookies.empty : Cookies.fromSetCookie(Array.isArray(header) ? header : [header])
  }

  get remoteAddress(): Option.Option<string> {
    return Option.none()
  }

  private decodeError(cause: unknown): HttpClientError.ResponseError {
    return new HttpClientError.ResponseError({ request: this.request, response: this, reason: "Decode", cause })
  }

  /** The whole body through `read`; an interrupted read releases the body. */
  private whole<A>(read: (body: Undici.Dispatcher.ResponseData["body"]) => Promise<A>) {
    return Effect.async<A, HttpClientError.ResponseError>((resume) => {
      const body = this.source.body
      read(body).then(
        (value) => resume(Effect.succeed(value)),
        (cause) => resume(Effect.fail(this.decodeError(cause)))
      )
      return Effect.sync(() => body.destroy())
    })
  }

  get text(): Effect.Effect<string, HttpClientError.ResponseError> {
    return this.whole((body) => body.text())
  }

  get json(): Effect.Effect<unknown, HttpClientError.ResponseError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({
        try: () => text === "" ? null : JSON.parse(text) as unknown,
        catch: (cause) => this.decodeError(cause)
      }))
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpClientError.ResponseError> {
    return this.whole((body) => body.arrayBuffer())
  }

  get formData(): Effect.Effect<FormData, HttpClientError.ResponseError> {
    // undici's body gives no form data: the platform's `Response` parses it, by the answer's content type
    return Effect.flatMap(this.arrayBuffer, (bytes) =>
      Effect.tryPromise({
        try: () => new globalThis.Response(bytes, { headers: this.headers }).formData(),
        catch: (cause) => this.decodeError(cause)
      }))
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpClientError.ResponseError> {
    return Effect.map(this.text, (text) => UrlParams.fromInput(new URLSearchParams(text)))
  }

  get stream(): Stream.Stream<Uint8Array, HttpClientError.ResponseError> {
    return Stream.suspend(() => {
      const reader = this[BodyReaderTypeId]((cause) => this.decodeError(cause), Date.now)
      return Stream.ensuring(streamOf(reader.read), Effect.sync(reader.close))
    })
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, {
      _id: "@effect/platform/HttpClientResponse",
      request: this.request.toJSON(),
      status: this.status
    })
  }
}
