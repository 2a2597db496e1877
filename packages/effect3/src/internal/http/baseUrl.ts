/**
 * The base URL's check (the policy is the core's, `studio-effect-core/url/baseUrl`): the URL to use, or a
 * `ValidationError` that says what is wrong and what to use.
 */
import * as Effect from "effect/Effect"
import { resolveBaseUrl } from "studio-effect-core/url/baseUrl"
import { ValidationError, ValidationIssue } from "../../StudioError.js"

/** The base URL to use, or the `ValidationError` that says what is wrong and what to use. */
export const checkBaseUrl = (baseUrl: string, allowInsecureHttp: boolean): Effect.Effect<string, ValidationError> => {
  const resolved = resolveBaseUrl(baseUrl, allowInsecureHttp)
  return resolved._tag === "BaseUrl" ? Effect.succeed(resolved.url) : Effect.fail(
    new ValidationError({
      operation: "client",
      source: "client",
      issues: [new ValidationIssue({ path: "baseUrl", message: resolved.problem })]
    })
  )
}
