/**
 * An `HttpClient` that calls the service's `HttpEffect` directly, without a socket: the request becomes a
 * server request, the app runs in the caller's fiber (so `TestClock` and interruption apply), and its
 * response becomes the client's response, its body read as the client reads it.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpEffect from "effect/http/HttpEffect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Scope from "effect/Scope"
import type { App } from "./app.js"

/**
 * An `HttpClient` backed by `app`. The server request is a view of the client's request, whose body (bytes
 * or a stream) the service pulls directly: no step of a request waits on a promise, so `TestClock` sees a
 * request through before it moves the clock on. Each request has its own scope, closed once its response
 * is made or, for a streamed body, once that body ends.
 */
export const fromApp = (app: App): HttpClient.HttpClient =>
  HttpClient.make((request) =>
    Effect.suspend(() => {
      const scope = Scope.makeUnsafe()
      let transferred = false
      return app.pipe(
        Effect.map((response) => {
          const transfer = HttpEffect.scopeTransferToStream(response)
          transferred = transfer !== response
          return HttpServerResponse.toClientResponse(transfer, { request })
        }),
        Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromClientRequest(request)),
        Effect.provideService(Scope.Scope, scope),
        Effect.catchTag("ConnectionDropped", () =>
          Effect.fail(
            new HttpClientError.HttpClientError({
              reason: new HttpClientError.TransportError({
                request,
                description: "the connection was closed before a response"
              })
            })
          )),
        Effect.onExit((exit) => transferred && Exit.isSuccess(exit) ? Effect.void : Scope.close(scope, exit))
      )
    })
  )
