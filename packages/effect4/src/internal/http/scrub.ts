/**
 * Scrubbing secrets from errors (the secrets of a request and the walk are the core's,
 * `studio-effect-core/secrets/requestSecrets`), and from the transport's spans.
 */
import * as Effect from "effect/Effect"
import * as Headers from "effect/http/Headers"
import * as HttpClient from "effect/http/HttpClient"
import * as Redacted from "effect/Redacted"
import { scrubError, secretsOf as requestSecretsOf } from "studio-effect-core/secrets/requestSecrets"
import type { StudioError, ToolCallError } from "../../StudioError.js"

/**
 * The secrets of one request: the API key, and every credential value (`headers` of the tools) in its body,
 * longest first.
 */
export const secretsOf = (apiKey: Redacted.Redacted | undefined, body: unknown): ReadonlyArray<string> =>
  requestSecretsOf(apiKey === undefined ? undefined : Redacted.value(apiKey), body)

/** A `Schema.Class` instance made again from its scrubbed fields, without checking them again. */
const rebuild = (instance: object, fields: Record<string, unknown>): unknown =>
  new (instance.constructor as new(fields: unknown, options: { readonly disableChecks: boolean }) => unknown)(
    fields,
    { disableChecks: true }
  )

/** The error with every secret replaced in everything it carries; the same error when it holds none. */
export const scrub = <E extends StudioError | ToolCallError>(error: E, secrets: ReadonlyArray<string>): E =>
  scrubError(error, secrets, rebuild)

/** Every header name: the transport's span shows no header value. */
const everyHeader: ReadonlyArray<RegExp> = [/^/]

/**
 * The transport, with every header value redacted in its own span (`http.request.header.*`,
 * `http.response.header.*`). The platform records headers only when the application asks for them
 * (`HttpClient.TracerHeaderFilter`), and then shows the value of every header not named in
 * `Headers.CurrentRedactedNames`. A server may echo a secret in any response header (a request id that
 * quotes the `Authorization` it got), so only a name list that covers them all keeps that out of traces.
 * Errors keep the request id, scrubbed.
 */
export const withRedactedHeaders = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  HttpClient.transform(client, (effect) => Effect.provideService(effect, Headers.CurrentRedactedNames, everyHeader))
