/**
 * The reference service's routes: each operation of the endpoint table to its handler, on `effect/http`'s
 * `HttpRouter`; an unknown path is a 404, a known one with another method a 405, a defect a 500.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as Scope from "effect/Scope"
import { isDecodablePath } from "studio-effect-core/reference/requestPath"
import { pathOf } from "studio-effect-core/reference/requestPath"
import * as Endpoints from "studio-effect-core/wire/endpoints"
import type { HandledEndpoint, makeHandlers } from "./handlers.js"
import type { Limits } from "./limits.js"
import * as Wire from "./wire.js"

/**
 * The service answering the request in context: routed by the endpoint table; a body declared larger than
 * its limit is refused before anything else, as a proxy in front would; a path with a broken
 * percent-escape names nothing the service holds (404).
 */
export const route = (
  handlers: ReturnType<typeof makeHandlers>,
  limits: Limits
): Effect.Effect<
  Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest | Scope.Scope>,
  never,
  Scope.Scope
> => {
  const names = Object.keys(handlers) as Array<HandledEndpoint>
  const routes = HttpRouter.addAll(
    names.map((name) => {
      const endpoint = Endpoints.endpoints[name]
      return HttpRouter.route(endpoint.method, Endpoints.routePattern(endpoint), handlers[name])
    })
  )
  return Effect.map(HttpRouter.toHttpEffect(routes), (router) => {
    const served = router.pipe(
      Effect.catchReason("HttpServerError", "RouteNotFound", (notFound) =>
        Effect.succeed(
          Endpoints.isServicePath(pathOf(notFound.request.url))
            ? Wire.detail(405, "Method Not Allowed")
            : Wire.detail(404, "Not Found")
        )),
      Effect.orDie,
      Effect.catchDefect(() => Effect.succeed(Wire.detail(500, "Internal Server Error")))
    )
    return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      if (!isDecodablePath(pathOf(request.url))) return Effect.succeed(Wire.detail(404, "Not Found"))
      const refused = limits.declaredTooLarge(request)
      return refused === undefined ? served : Effect.succeed(refused)
    })
  })
}
