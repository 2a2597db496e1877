/**
 * Scrubbing secrets from errors. A server may echo what it was sent (`Invalid key: Bearer sk-...`, a tool
 * server's refusal quoting its `Authorization` header), and errors copy what the server said: its `detail`,
 * the body, the request id. Before an error leaves the client, every string it carries is searched for the
 * API key and the tool credential values of the request, and each one found is replaced.
 */
import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { redactText } from "studio-effect-core/secrets/redactSecrets"
import { isWellFormed } from "studio-effect-core/text/wellFormed"
import type { StudioError, ToolCallError } from "../../StudioError.js"

/**
 * Values shorter than this are not searched for: they would match ordinary text (a header value `1` would
 * erase every digit of a message), and a credential that short protects nothing.
 */
const minSecretLength = 4

/** Bounds on the walk of a request body for credentials. */
const maxDepth = 16
const maxSecrets = 256

/** The forms a server may echo a secret in: as sent, without its auth scheme, JSON-escaped, URL-encoded. */
const formsOf = (secret: string, into: Set<string>): void => {
  const forms = [secret]
  const scheme = /^(?:Bearer|Basic|Token|Bot)\s+(.+)$/i.exec(secret)
  if (scheme !== null) forms.push(scheme[1]!)
  for (const form of [...forms]) {
    // a credential that is not well-formed text has no URL-encoded form (`encodeURIComponent` would throw)
    forms.push(JSON.stringify(form).slice(1, -1), isWellFormed(form) ? encodeURIComponent(form) : form)
  }
  for (const form of forms) if (form.length >= minSecretLength && into.size < maxSecrets) into.add(form)
}

/** The string values of every `headers` object in a request body: the tools' credentials. */
const collectCredentials = (value: unknown, depth: number, into: Set<string>): void => {
  if (depth > maxDepth || typeof value !== "object" || value === null || into.size >= maxSecrets) return
  if (Array.isArray(value)) {
    for (const item of value) collectCredentials(item, depth + 1, into)
    return
  }
  for (const [key, field] of Object.entries(value)) {
    if (key === "headers" && typeof field === "object" && field !== null && !Array.isArray(field)) {
      for (const header of Object.values(field)) if (typeof header === "string") formsOf(header, into)
    } else {
      collectCredentials(field, depth + 1, into)
    }
  }
}

/**
 * The secrets of one request: the API key, and every credential value (`headers` of the tools) in its body,
 * longest first, so that a secret containing another is replaced whole.
 */
export const secretsOf = (apiKey: Redacted.Redacted | undefined, body: unknown): ReadonlyArray<string> => {
  const found = new Set<string>()
  if (apiKey !== undefined) formsOf(Redacted.value(apiKey), found)
  collectCredentials(body, 0, found)
  return [...found].sort((a, b) => b.length - a.length)
}

/** A value with every string in it scrubbed; `Schema.Class` instances are rebuilt, other objects kept. */
const scrubValue = (value: unknown, secrets: ReadonlyArray<string>, depth: number): unknown => {
  if (typeof value === "string") return redactText(value, secrets)
  if (depth > maxDepth || typeof value !== "object" || value === null) return value
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets, depth + 1))
  const prototype = Object.getPrototypeOf(value)
  const isPlain = prototype === Object.prototype || prototype === null
  const isSchemaClass = !isPlain && typeof value.constructor === "function" && "fields" in value.constructor
  if (!isPlain && !isSchemaClass) return value // a Duration, a Date: nothing a server wrote
  const fields: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    if (isSchemaClass && key === "_tag") continue
    fields[key] = scrubValue(field, secrets, depth + 1)
  }
  return isSchemaClass
    ? new (value.constructor as new(fields: unknown, skip: boolean) => unknown)(fields, true)
    : fields
}

/**
 * `secrets` (the key's, from `secretsOf`) with the credential values of `body` added; `secrets` itself when
 * the body holds none, so a call without tool credentials costs one walk of its body and nothing more.
 */
export const withCredentials = (secrets: ReadonlyArray<string>, body: unknown): ReadonlyArray<string> => {
  const found = new Set<string>()
  collectCredentials(body, 0, found)
  if (found.size === 0) return secrets
  for (const secret of secrets) found.add(secret)
  return [...found].sort((a, b) => b.length - a.length)
}

const mentions = (error: StudioError | ToolCallError, secrets: ReadonlyArray<string>): boolean => {
  let shown: string
  try {
    shown = `${JSON.stringify(error)}\n${error.message}`
  } catch {
    return true
  }
  return secrets.some((secret) => shown.includes(secret))
}

/** The error with every secret replaced in everything it carries; the same error when it holds none. */
export const scrub = <E extends StudioError | ToolCallError>(error: E, secrets: ReadonlyArray<string>): E =>
  secrets.length === 0 || !mentions(error, secrets) ? error : scrubValue(error, secrets, 0) as E

/** Every header name: the transport's span shows no header value. */
const everyHeader: ReadonlyArray<RegExp> = [/^/]

/**
 * The transport, with every header value redacted in its own span (`http.response.header.*`,
 * `http.request.header.*`). A server may echo a secret in any response header (a request id that quotes
 * the `Authorization` it got), and `@effect/platform` records response headers by name, so only a name
 * list that covers them all keeps that out of traces. Errors keep the request id, scrubbed.
 */
export const withRedactedHeaders = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  HttpClient.transform(client, (effect) => Effect.locally(effect, Headers.currentRedactedNames, everyHeader))
