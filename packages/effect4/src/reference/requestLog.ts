/**
 * `serve --log`: one line per request with its method, URL and status. Written here rather than with
 * `HttpMiddleware.logger`, which logs a request whose handler was interrupted as a 500: a client that went
 * away, or a malformed body that Node.js answered 400 itself, would read as the service's failure.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import { clientClosedStatus } from "studio-effect-core/reference/connections"

/** The status a request's exit stands for: its response's, the client's closing, or a defect's 500. */
const statusOf = (exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>): number =>
  Exit.isSuccess(exit) ? exit.value.status : Cause.hasInterruptsOnly(exit.cause) ? clientClosedStatus : 500

/** `app` with a log line for each request it answers, or that its client ended first. */
export const logRequests = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(
    HttpServerRequest.HttpServerRequest,
    (request) =>
      Effect.onExit(app, (exit) =>
        Effect.log(Exit.isSuccess(exit) ? "Sent HTTP response" : "Request ended before a response").pipe(
          Effect.annotateLogs({
            "http.method": request.method,
            "http.url": request.url,
            "http.status": statusOf(exit)
          })
        ))
  )
