/**
 * How a handler of the reference service reads its request: the caller behind bearer auth and the rate
 * limit, with its tenant; the body decoded with the SDK's schemas within the limits, as FastAPI's 422s;
 * the path's parameters.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as Schema from "effect/Schema"
import {
  type BodyTooLarge,
  type BudgetSpent,
  ShuttingDown,
  shuttingDownDetail
} from "studio-effect-core/reference/bodyRefusals"
import { budgetSpentDetail } from "studio-effect-core/reference/byteBudget"
import {
  bearerKey,
  modelIssue,
  parseJsonBody,
  rateLimitedDetail,
  unauthorizedDetail
} from "studio-effect-core/reference/fastApi"
import { isRunModel } from "studio-effect-core/reference/modelCatalog"
import type { RateWindows } from "studio-effect-core/reference/rateWindows"
import { runModels } from "studio-effect-core/wire/models"
import { readText } from "./body.js"
import type { Limits } from "./limits.js"
import type * as Tenants from "./tenants.js"
import * as Wire from "./wire.js"

/** What a handler may fail with: each becomes an answer (422, 413, 503). */
export type Refusal = Wire.InvalidBody | BodyTooLarge | BudgetSpent | ShuttingDown

/** A handler of one operation, given the caller's tenant. */
export type Handler = (tenant: Tenants.Tenant) => Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  Refusal,
  HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext
>

/** A handler's answer behind auth and the rate limit: every refusal is an answer. */
export type Answer = Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  never,
  HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext
>

/** The readers of a request, over the service's limits, keys, tenants and shutdown signal. */
export const makeRequests = (context: {
  readonly limits: Limits
  readonly stopping: Effect.Effect<void>
  readonly keys: ReadonlySet<string> | undefined
  /** The callers' windows of requests (`rateLimit`, or the default limit). */
  readonly windows: RateWindows
  readonly tenants: { readonly of: (key: string) => Tenants.Tenant }
  readonly extraModels: ReadonlyArray<string>
}) => {
  const { limits, stopping } = context
  const acceptedRunModels = [...runModels, ...context.extraModels]

  /**
   * The request body decoded with a schema: a bad body becomes the 422 FastAPI would send, one nested too
   * deeply a 422 before any decoding, one over the size limit `BodyTooLarge` (a 413), and one that would
   * pass the budget of unfinished bodies `BudgetSpent`, or one still arriving when the service stops
   * `ShuttingDown` (both 503s).
   */
  const body = <A>(schema: Schema.ConstraintDecoder<A>) =>
    Effect.flatMap(
      HttpServerRequest.HttpServerRequest,
      (request) =>
        readText(request, limits.maxBodyBytes, limits.pending).pipe(
          Effect.raceFirst(Effect.andThen(stopping, Effect.fail(new ShuttingDown()))),
          Effect.catchTag("BodyUnreadable", () => Effect.succeed("\u0000")),
          Effect.flatMap((text): Effect.Effect<A, Wire.InvalidBody> => {
            const parsed = parseJsonBody(text, limits.maxJsonDepth)
            return parsed._tag === "Refused"
              ? Effect.fail(new Wire.InvalidBody(parsed.issues))
              : Wire.decodeBody(schema, parsed.value, parsed.everyIssue)
          })
        )
    )

  /**
   * A body whose `models`, when given, names a model the service runs (see `isRunModel`); another is a
   * 422 at `body.models.0`.
   */
  const runBody = <A extends { readonly models?: ReadonlyArray<string> | undefined }>(
    schema: Schema.ConstraintDecoder<A>
  ) =>
    Effect.filterOrFail(
      body(schema),
      (request) => request.models?.[0] === undefined || isRunModel(request.models[0], context.extraModels),
      () => new Wire.InvalidBody([modelIssue(acceptedRunModels, ["body", "models", 0])])
    )

  /**
   * Auth, then the rate limit, then the handler with the caller's tenant; validation failures become
   * 422s, a body refused while it arrives a 413 or a 503.
   */
  const endpoint = (handler: Handler): Answer =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const key = bearerKey(request.headers["authorization"])
      if (key === undefined || (context.keys !== undefined && !context.keys.has(key))) {
        return Wire.detail(401, unauthorizedDetail)
      }
      const retryAfter = context.windows.admit(key, yield* Clock.currentTimeMillis)
      if (retryAfter !== undefined) {
        return Wire.detail(429, rateLimitedDetail, { "retry-after": String(retryAfter) })
      }
      return yield* handler(context.tenants.of(key)).pipe(
        Effect.catchTags({
          InvalidBody: (error) => Effect.succeed(Wire.unprocessable(error.issues)),
          BodyTooLarge: (error) => Effect.succeed(limits.tooLarge(error.limit)),
          BudgetSpent: (error) => Effect.succeed(limits.unavailable(budgetSpentDetail(error.limit))),
          ShuttingDown: () => Effect.succeed(limits.unavailable(shuttingDownDetail))
        })
      )
    })

  const param = (name: string) => Effect.map(HttpRouter.params, (params) => params[name] ?? "")

  return { body, runBody, endpoint, param }
}

/** The readers of a request (see `makeRequests`). */
export type Requests = ReturnType<typeof makeRequests>
