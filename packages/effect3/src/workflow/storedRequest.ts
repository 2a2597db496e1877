/**
 * What a durable workflow stores of a request: all of it, so a request whose tools carry credentials is
 * refused before anything is stored or sent.
 */
import * as Effect from "effect/Effect"
import { storedCredentialPaths } from "studio-effect-core/workflow/durablePolling"
import { ValidationError, ValidationIssue } from "../StudioError.js"

/** Fails with `ValidationError` (each credential's path) when `request`'s tools carry credentials. */
export const refuseStoredCredentials = (operation: string, request: unknown): Effect.Effect<void, ValidationError> => {
  const paths = storedCredentialPaths(request)
  return paths.length === 0 ? Effect.void : Effect.fail(
    new ValidationError({
      operation,
      source: "client",
      issues: paths.map((path) =>
        new ValidationIssue({
          path,
          message: "a durable workflow stores its request, so it may not hold credentials; " +
            "give the tool server its credentials another way (a proxy, or a run outside a workflow)"
        })
      )
    })
  )
}
