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
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { ConnectionDropped } from "./faults.js"

const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

const bodyOf = (
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<BodyInit | undefined, HttpClientError.RequestError> => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return Effect.succeed(undefined)
    case "Uint8Array":
      return Effect.succeed(body.body as BodyInit)
    case "Raw":
      return Effect.succeed(body.body as BodyInit)
    case "FormData":
      return Effect.succeed(body.formData)
    case "Stream":
      return Stream.runCollect(body.stream).pipe(
        Effect.map((parts) => concat(Chunk.toReadonlyArray(parts)) as BodyInit),
        Effect.mapError((cause) =>
          new HttpClientError.RequestError({ request, reason: "Encode", cause, description: "reading the body" })
        )
      )
  }
}

/** An `HttpClient` backed by `app`. */
export const fromApp = (app: HttpApp.Default<ConnectionDropped>): HttpClient.HttpClient =>
  HttpClient.make((request, url, signal) =>
    Effect.gen(function*() {
      const body = yield* bodyOf(request)
      const hasBody = body !== undefined && request.method !== "GET" && request.method !== "HEAD"
      const webRequest = new Request(url, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        signal,
        ...(hasBody ? { body } : {})
      })
      const runtime = yield* Effect.runtime<never>()
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
