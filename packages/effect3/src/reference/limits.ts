/**
 * The limits of what the reference service reads: the largest body (an upload's own, larger one), the
 * deepest JSON, the bytes of all bodies still arriving, and the answers (413, 503) for a body past them.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import {
  declaredLength,
  defaultMaxBodyBytes,
  maxUploadBytes as uploadLimit,
  tooLargeDetail
} from "studio-effect-core/reference/bodyRefusals"
import { type ByteBudget, defaultMaxPendingBodyBytes, makeByteBudget } from "studio-effect-core/reference/byteBudget"
import { defaultMaxJsonDepth } from "studio-effect-core/reference/fastApi"
import { pathOf } from "studio-effect-core/reference/requestPath"
import * as Endpoints from "studio-effect-core/wire/endpoints"
import * as Wire from "./wire.js"

/** The limits in force, and the answers for a body past them. */
export interface Limits {
  readonly maxBodyBytes: number
  /** An upload's body holds a file of up to `maxFileBytes`, and its form fields. */
  readonly maxUploadBytes: number
  readonly maxJsonDepth: number
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
export const makeLimits = (options: {
  readonly maxBodyBytes?: number | undefined
  readonly maxJsonDepth?: number | undefined
  readonly maxFileBytes?: number | undefined
  readonly maxPendingBodyBytes?: number | undefined
}): Limits => {
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes
  const maxUploadBytes = uploadLimit(maxBodyBytes, options.maxFileBytes)
  const tooLarge = (limit = maxBodyBytes) => Wire.detail(413, tooLargeDetail(limit), { connection: "close" })
  const uploadPath = Endpoints.endpoints.libraryUpload.path
  return {
    maxBodyBytes,
    maxUploadBytes,
    maxJsonDepth: options.maxJsonDepth ?? defaultMaxJsonDepth,
    pending: makeByteBudget(options.maxPendingBodyBytes ?? defaultMaxPendingBodyBytes),
    tooLarge,
    unavailable: (detail) => Wire.detail(503, detail, { connection: "close", "retry-after": "1" }),
    declaredTooLarge: (request) => {
      const declared = declaredLength(request.headers["content-length"])
      // an upload has a limit of its own
      const limit = request.method === "POST" && pathOf(request.url) === uploadPath ? maxUploadBytes : maxBodyBytes
      return declared !== undefined && declared > limit ? tooLarge(limit) : undefined
    }
  }
}
