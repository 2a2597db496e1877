/**
 * An `HttpClient` that calls an `HttpApp` directly, without a socket: the request becomes a web `Request`
 * and a server request, the app runs in the caller's fiber (so `TestClock` and interruption apply), and
 * its response becomes the client's response.
 */
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import type * as Runtime from "effect/Runtime"
import * as Stream from "effect/Stream"
import type { ConnectionDropped } from "./faults.js"

/**
 * The body as a web body. A streamed body stays a stream, read by the service as it needs it: the service
 * stops reading one that passes its size limit, so an endless body is never collected.
 */
const bodyOf = (
  request: HttpClientRequest.HttpClientRequest,
  runtime: Runtime.Runtime<never>
): BodyInit | undefined => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return undefined
    case "Uint8Array":
      return body.body as BodyInit
    case "Raw":
      return body.body as BodyInit
    case "FormData":
      return body.formData
    case "Stream":
      return Stream.toReadableStreamRuntime(body.stream, runtime) as BodyInit
  }
}

/** An `HttpClient` backed by `app`. */
export const fromApp = (app: HttpApp.Default<ConnectionDropped>): HttpClient.HttpClient =>
  HttpClient.make((request, url, signal) =>
    Effect.gen(function*() {
      const runtime = yield* Effect.runtime<never>()
      const body = bodyOf(request, runtime)
      const hasBody = body !== undefined && request.method !== "GET" && request.method !== "HEAD"
      const webRequest = new Request(url, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        signal,
        // a stream body needs `duplex: "half"` (Node.js's fetch); other bodies ignore it
        ...(hasBody ? { body, duplex: "half" } : {})
      } as RequestInit)
      const response = yield* app.pipe(
        Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(webRequest)),
        Effect.catchTag("ConnectionDropped", () =>
          Effect.fail(
            new HttpClientError.RequestError({
              request,
              reason: "Transport",
              description: "the connection was closed before a response"
            })
          ))
      )
      return HttpClientResponse.fromWeb(request, HttpServerResponse.toWeb(response, { runtime }))
    })
  )
