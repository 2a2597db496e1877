/**
 * The API key's check: printable ASCII only (`studio-effect-core/validate/apiKey`), so that it is sent the
 * same way over every transport (`fetch` would strip a trailing line break, undici refuse it on every
 * attempt), or refused before anything is sent with a `ValidationError` that names the problem, not the key.
 */
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { apiKeyProblem } from "studio-effect-core/validate/apiKey"
import { ValidationError, ValidationIssue } from "../../StudioError.js"

/** Nothing when the key is absent or well-formed; otherwise the `ValidationError` saying what is wrong. */
export const checkApiKey = (apiKey: Redacted.Redacted | undefined): Effect.Effect<void, ValidationError> => {
  const problem = apiKey === undefined ? undefined : apiKeyProblem(Redacted.value(apiKey))
  return problem === undefined ? Effect.void : Effect.fail(
    new ValidationError({
      operation: "client",
      source: "client",
      issues: [new ValidationIssue({ path: "apiKey", message: problem })]
    })
  )
}
