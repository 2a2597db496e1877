/**
 * An `HttpClient` over `undici`, for Node: the fastest transport for the Studio client. Its responses give
 * their body as it arrives, one network read at a time, with no queue between the socket and the stream.
 * On `NodeHttpClient.layerUndici` or `FetchHttpClient.layer` the client works the same, at the platform's
 * cost per request and per read (see `bench/HISTORY.md`, "The Effect 4 transport").
 *
 * It makes no span of its own: the client's span `studio.<operation>` covers each request, and its trace
 * context is sent as `traceparent` and `b3`. Redirects are returned, not followed. A URL's `#fragment` is
 * not sent, as no HTTP client sends it. An HTTP upgrade is not offered: the Studio service has none.
 *
 * @since 1.1.0
 */
import * as Channel from "effect/Channel"
import * as Effect from "effect/Effect"
import { identity } from "effect/Function"
import * as Cookies from "effect/http/Cookies"
import * as Headers from "effect/http/Headers"
import type * as HttpBody from "effect/http/HttpBody"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as Url from "effect/http/Url"
import * as UrlParams from "effect/http/UrlParams"
import * as Inspectable from "effect/Inspectable"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { pipeArguments } from "effect/Pipeable"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import type * as Socket from "effect/socket/Socket"
import * as Stream from "effect/Stream"
import { Readable } from "node:stream"
import * as Undici from "undici"
import { AbortableTypeId, RequestAbort } from "../internal/http/requestAbort.js"
import {
  type HasReadableBody,
  makeReadableBody,
  type ReadableBody,
  ReadableBodyTypeId
} from "../internal/stream/readableBody.js"

/**
 * The client over `dispatcher` (an `undici` `Agent`, `Pool` or `Client`).
 *
 * @since 1.1.0
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
 * @since 1.1.0
 * @category layers
 */
export const layer: Layer.Layer<HttpClient.HttpClient> = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => new Undici.Agent()),
      (agent) => Effect.promise(() => agent.destroy())
    ),
    make
  )
)

const transportError = (request: HttpClientRequest.HttpClientRequest, cause: unknown, description?: string) =>
  new HttpClientError.HttpClientError({
    reason: new HttpClientError.TransportError({
      request,
      cause,
      ...(description === undefined ? {} : { description })
    })
  })

const send = (
  dispatcher: Undici.Dispatcher,
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> => {
  const url = Url.make(request.url, request.urlParams, undefined)
  if (Result.isFailure(url)) {
    return Effect.fail(
      new HttpClientError.HttpClientError({
        reason: new HttpClientError.InvalidUrlError({ request, cause: url.failure })
      })
    )
  }
  if (request.headers.upgrade !== undefined) {
    return Effect.fail(transportError(request, undefined, "studio-effect/undici does not send HTTP upgrades"))
  }
  return Effect.flatMap(
    Effect.zip(bodyOf(request.body), Effect.serviceOption(RequestAbort)),
    ([body, slot]) =>
      Effect.callback<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>((resume) => {
        const controller = new AbortController()
        // the client's attempt timeout ends the request, its body included, through this
        if (Option.isSome(slot)) slot.value.abort = () => controller.abort()
        dispatcher.request({
          signal: controller.signal,
          method: request.method,
          headers: request.headers,
          origin: url.success.origin,
          // a fragment is the client's own: it is never sent
          path: url.success.pathname + url.success.search,
          body,
          // timeouts are the client's (per attempt, and the idle timeout of streams)
          headersTimeout: 0,
          bodyTimeout: 0
        }).then(
          (source) => resume(Effect.succeed(new UndiciResponse(request, url.success.href, source))),
          (cause) => resume(Effect.fail(transportError(request, cause)))
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
      const form = new Undici.FormData()
      for (const [name, value] of body.formData) form.append(name, value)
      return Effect.succeed(form)
    }
    case "Stream":
      return Effect.map(Stream.toAsyncIterableEffect(body.stream), (iterable) => Readable.from(iterable))
  }
}

const formDecoder = new TextDecoder("utf-8", { ignoreBOM: true })

class UndiciResponse extends Inspectable.Class implements HttpClientResponse.HttpClientResponse, HasReadableBody {
  readonly [HttpIncomingMessage.TypeId]: typeof HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  readonly [HttpClientResponse.TypeId]: typeof HttpClientResponse.TypeId = HttpClientResponse.TypeId

  constructor(
    readonly request: HttpClientRequest.HttpClientRequest,
    readonly url: string,
    private readonly source: Undici.Dispatcher.ResponseData
  ) {
    super()
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

  private decodeError(cause: unknown): HttpClientError.HttpClientError {
    return new HttpClientError.HttpClientError({
      reason: new HttpClientError.DecodeError({ request: this.request, response: this, cause })
    })
  }

  /** The whole body through `read`; an interrupted read releases the body. */
  private whole<A>(read: (body: Undici.Dispatcher.ResponseData["body"]) => Promise<A>) {
    return Effect.callback<A, HttpClientError.HttpClientError>((resume) => {
      const body = this.source.body
      read(body).then(
        (value) => resume(Effect.succeed(value)),
        (cause) => resume(Effect.fail(this.decodeError(cause)))
      )
      return Effect.sync(() => body.destroy())
    })
  }

  get text(): Effect.Effect<string, HttpClientError.HttpClientError> {
    return this.whole((body) => body.text())
  }

  get json(): Effect.Effect<Schema.Json, HttpClientError.HttpClientError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({
        try: () => text === "" ? null : JSON.parse(text) as Schema.Json,
        catch: (cause) => this.decodeError(cause)
      }))
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpClientError.HttpClientError> {
    return this.whole((body) => body.arrayBuffer())
  }

  get formData(): Effect.Effect<FormData, HttpClientError.HttpClientError> {
    return Effect.flatMap(this.arrayBuffer, (bytes) =>
      Effect.tryPromise({
        try: () => new globalThis.Response(bytes, { headers: this.headers }).formData(),
        catch: (cause) => this.decodeError(cause)
      }))
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpClientError.HttpClientError> {
    return Effect.map(
      this.arrayBuffer,
      // a leading "?" is form data, which URLSearchParams would drop as a query's prefix
      (bytes) => UrlParams.fromInput(new URLSearchParams(formDecoder.decode(bytes).replace(/^\?/, "%3F")))
    )
  }

  [ReadableBodyTypeId]<E>(
    onError: (error: HttpClientError.HttpClientError) => E,
    now: () => number
  ): ReadableBody<E> {
    return makeReadableBody(this.source.body, (cause) => onError(this.decodeError(cause)), now)
  }

  get stream(): Stream.Stream<Uint8Array, HttpClientError.HttpClientError> {
    return Stream.fromChannel(Channel.fromTransform((_, scope) => {
      const body = this[ReadableBodyTypeId](identity, Date.now)
      return Effect.as(Scope.addFinalizer(scope, Effect.sync(body.release)), body.pull)
    }))
  }

  get upgrade(): Effect.Effect<Socket.Socket, HttpClientError.HttpClientError> {
    return Effect.fail(
      new HttpClientError.HttpClientError({
        reason: new HttpClientError.StatusCodeError({
          request: this.request,
          response: this,
          description: "studio-effect/undici does not hand over connections"
        })
      })
    )
  }

  pipe() {
    return pipeArguments(this, arguments)
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, {
      _id: "effect/http/HttpClientResponse",
      request: this.request.toJSON(),
      url: this.url,
      status: this.status
    })
  }
}
