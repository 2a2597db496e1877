/**
 * The SDK's typed errors as `@effect/ai`'s `AiError`, each keeping the original as its `cause`. None of the
 * SDK's errors holds the key or a request's headers, so neither does the `AiError` made from it.
 */
import * as AiError from "@effect/ai/AiError"
import * as Option from "effect/Option"
import type { StudioError } from "../../StudioError.js"

const module = "StudioLanguageModel"

const httpMethods = ["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS"] as const

const httpMethod = (method: string): typeof httpMethods[number] =>
  httpMethods.find((known) => known === method.toUpperCase()) ?? "POST"

/**
 * `MalformedInput` for a request that breaks a rule of the interface (nothing was sent), `HttpRequestError`
 * for a request that got no complete answer, `MalformedOutput` for an answer that does not decode, and
 * `UnknownError` for every answer of the service that is an error status: `HttpResponseError` has no
 * `cause`, and the original (with its status, `detail`, request id and `retryAfter`) must stay reachable.
 */
export const fromStudioError = (method: string) => (error: StudioError): AiError.AiError => {
  const description = error.message
  switch (error._tag) {
    case "ValidationError":
      return error.source === "client"
        ? new AiError.MalformedInput({ module, method, description, cause: error })
        : new AiError.UnknownError({ module, method, description, cause: error })
    case "TransportError":
    case "TimeoutError":
      return new AiError.HttpRequestError({
        module,
        method,
        reason: "Transport",
        request: { method: httpMethod(error.method), url: error.url, urlParams: [], hash: Option.none(), headers: {} },
        description,
        cause: error
      })
    case "DecodeError":
      return new AiError.MalformedOutput({ module, method, description, cause: error })
    default:
      return new AiError.UnknownError({ module, method, description, cause: error })
  }
}
