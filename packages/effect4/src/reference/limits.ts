/**
 * The limits of what the reference service reads: the largest body (an upload's own, larger one), the
 * deepest JSON, the bytes of all bodies still arriving, and the answers (413, 503) for a body past them.
 */
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import {
  bodyLimitOf,
  type BodyLimits,
  bodyLimitsOf,
  declaredLength,
  tooLargeDetail
} from "studio-effect-core/reference/bodyRefusals"
import { type ByteBudget, makeByteBudget } from "studio-effect-core/reference/byteBudget"
import * as Wire from "./wire.js"

/** The limits in force (`bodyLimitsOf`), and the answers for a body past them. */
export interface Limits extends BodyLimits {
  /** The bytes of all bodies still arriving. */
  readonly pending: ByteBudget
  /** A 413; the connection closes, so the rest of an unread body is not drained on a kept-alive socket. */
  readonly tooLarge: (limit?: number) => HttpServerResponse.HttpServerResponse
  /** A 503 for a body refused while it arrives: the rest is not read, so the connection closes. */
  readonly unavailable: (detail: string) => HttpServerResponse.HttpServerResponse
  /** The 413 for a body declared larger than its limit, refused before anything else as a proxy would. */
  readonly declaredTooLarge: (
    request: HttpServerRequest.HttpServerRequest
  ) => HttpServerResponse.HttpServerResponse | undefined
}

/** The limits of the options (each has a default). */
export const makeLimits = (options: Parameters<typeof bodyLimitsOf>[0]): Limits => {
  const limits = bodyLimitsOf(options)
  const tooLarge = (limit = limits.maxBodyBytes) => Wire.detail(413, tooLargeDetail(limit), { connection: "close" })
  return {
    ...limits,
    pending: makeByteBudget(limits.maxPendingBodyBytes),
    tooLarge,
    unavailable: (detail) => Wire.detail(503, detail, { connection: "close", "retry-after": "1" }),
    declaredTooLarge: (request) => {
      const declared = declaredLength(request.headers["content-length"])
      const limit = bodyLimitOf(limits, request.method, request.url)
      return declared !== undefined && declared > limit ? tooLarge(limit) : undefined
    }
  }
}
