/**
 * A non-200 answer of the service as the error class of its status: the core's status → error rules decide
 * which error and what it carries; this module builds this line's class.
 */
import * as Duration from "effect/Duration"
import { answerHeaders } from "studio-effect-core/failure/answerHeaders"
import { describeResponseError } from "studio-effect-core/wire/responseErrors"
import {
  ApiError,
  AuthError,
  NotFound,
  RateLimit,
  type RequestError,
  ValidationError,
  ValidationIssue
} from "../../StudioError.js"

/** The delay the service asked for, as the error carries it. */
const retryAfterOf = (millis: number | undefined): { readonly retryAfter?: Duration.Duration } =>
  millis === undefined ? {} : { retryAfter: Duration.millis(millis) }

/** The error for a non-200 answer, from its status, headers and body text. */
export const fromResponse = (input: {
  readonly operation: string
  /** The request's method and full address, named by a 404. */
  readonly method?: string | undefined
  readonly url?: string | undefined
  readonly status: number
  readonly headers: Readonly<Record<string, string | undefined>>
  /** The start of the body, as `readErrorBody` reads it (at most 8 KiB). */
  readonly body: string
  readonly now: number
}): RequestError => {
  const described = describeResponseError(input)
  const headers = answerHeaders(input.headers)
  switch (described._tag) {
    case "ValidationError": {
      const { _tag, issues, ...rest } = described
      const classed = issues.map((issue) => new ValidationIssue(issue))
      return new ValidationError({ operation: input.operation, source: "service", issues: classed, ...rest, headers })
    }
    case "AuthError": {
      const { _tag, ...rest } = described
      return new AuthError({ ...rest, headers })
    }
    case "NotFound": {
      const { _tag, ...rest } = described
      return new NotFound({ ...rest, headers })
    }
    case "RateLimit": {
      const { detail, requestId, retryAfterMillis } = described
      return new RateLimit({
        detail,
        ...retryAfterOf(retryAfterMillis),
        ...(requestId === undefined ? {} : { requestId }),
        headers
      })
    }
    case "ApiError": {
      const { _tag, retryAfterMillis, ...rest } = described
      return new ApiError({ ...rest, ...retryAfterOf(retryAfterMillis), headers })
    }
  }
}
