/**
 * The SDK's typed errors as `effect/ai`'s `AiError`, each keeping the original as the `cause` of its reason.
 * None of the SDK's errors holds the key or a request's headers, so neither does the `AiError` made from it.
 */
import * as AiError from "effect/ai/AiError"
import type { StudioError } from "../../StudioError.js"

const module = "StudioLanguageModel"

/**
 * Sets the SDK error as the standard `cause` of a reason, as `new Error(message, { cause })` does (an own,
 * non-enumerable property), for every reason alike: only `NetworkError` has a `cause` field of its own.
 */
const causedBy = <Reason extends AiError.AiErrorReason>(reason: Reason, cause: StudioError): Reason =>
  Object.defineProperty(reason, "cause", { value: cause, writable: true, configurable: true, enumerable: false })

/**
 * The reason of an SDK error: `InvalidUserInputError` for a request that breaks a rule of the interface
 * (nothing was sent), `InvalidRequestError` when the service refuses it (400, 422), `AuthenticationError`,
 * `RateLimitError` with the delay the service asked for, `NetworkError` for a request that got no complete
 * answer in time, `InvalidResponseError` for an answer that does not decode, and the reason of its status
 * for any other error status.
 */
const reasonOf = (error: StudioError): AiError.AiErrorReason => {
  const description = error.message
  switch (error._tag) {
    case "ValidationError":
      return error.source === "client"
        ? new AiError.InvalidUserInputError({ description })
        : new AiError.InvalidRequestError({ description })
    case "AuthError":
      return new AiError.AuthenticationError({
        kind: error.status === undefined
          ? "MissingKey"
          : error.status === 403
          ? "InsufficientPermissions"
          : "InvalidKey",
        description
      })
    case "RateLimit":
      return new AiError.RateLimitError(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter })
    case "ApiError":
      return AiError.reasonFromHttpStatus({ status: error.status, description })
    case "TransportError":
    case "TimeoutError":
      return new AiError.NetworkError({
        reason: "TransportError",
        method: error.method,
        url: error.url,
        description
      })
    case "DecodeError":
      return new AiError.InvalidResponseError({ description })
    default:
      return new AiError.UnknownError({ description })
  }
}

/**
 * The `AiError` of a method of this provider for an SDK error, the SDK error being the `cause` of its reason.
 */
export const fromStudioError = (method: string) => (error: StudioError): AiError.AiError =>
  AiError.make({ module, method, reason: causedBy(reasonOf(error), error) })

/**
 * An `AiError` of this provider that no SDK error caused (the request cannot be made, or the answer cannot be
 * read as parts).
 */
export const aiError = (method: string, reason: AiError.AiErrorReason): AiError.AiError =>
  AiError.make({ module, method, reason })
