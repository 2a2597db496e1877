/**
 * The secrets of one request, and values scrubbed of them. A server may echo what it was sent
 * (`Invalid key: Bearer sk-...`, a tool server's refusal quoting its `Authorization` header), and errors copy
 * what the server said: its `detail`, the body, the request id. Before an error leaves the client, every
 * string it carries is searched for the API key and the tool credential values of the request, and each one
 * found is replaced.
 *
 * @since 0.1.0
 */
import { isWellFormed } from "../text/wellFormed.js"
import { redactText } from "./redactSecrets.js"
import { forEachToolCredential } from "./toolCredentials.js"

/**
 * Values shorter than this are not searched for: they would match ordinary text (a header value `1` would
 * erase every digit of a message), and a credential that short protects nothing.
 */
const minSecretLength = 4

/** Bounds on the walk of a value being scrubbed, and on the secrets of one request. */
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

/** Adds the forms of every credential value (the string entries of the tools' `headers`) in `body`. */
const addCredentials = (body: unknown, into: Set<string>): void => {
  forEachToolCredential(body, (credential) => {
    if (into.size >= maxSecrets) return false
    if (typeof credential.value === "string") formsOf(credential.value, into)
  })
}

const longestFirst = (found: Set<string>): ReadonlyArray<string> => [...found].sort((a, b) => b.length - a.length)

/**
 * The secrets of one request: the API key, and every credential value (`headers` of the tools) in its body,
 * longest first, so that a secret containing another is replaced whole.
 *
 * @since 0.1.0
 * @category secrets
 */
export const secretsOf = (apiKey: string | undefined, body: unknown): ReadonlyArray<string> => {
  const found = new Set<string>()
  if (apiKey !== undefined) formsOf(apiKey, found)
  addCredentials(body, found)
  return longestFirst(found)
}

/**
 * `secrets` (the key's, from `secretsOf`) with the credential values of `body` added; `secrets` itself when
 * the body holds none, so a call without tool credentials costs one walk of its body and nothing more.
 *
 * @since 0.1.0
 * @category secrets
 */
export const withCredentials = (secrets: ReadonlyArray<string>, body: unknown): ReadonlyArray<string> => {
  const found = new Set<string>()
  addCredentials(body, found)
  if (found.size === 0) return secrets
  for (const secret of secrets) found.add(secret)
  return longestFirst(found)
}

/**
 * How an instance of a `Schema.Class` (a class with static `fields`) is made again from its scrubbed fields:
 * each Effect major calls such a constructor its own way.
 *
 * @since 0.1.0
 * @category secrets
 */
export type Rebuild = (instance: object, fields: Record<string, unknown>) => unknown

const scrubValue = (value: unknown, secrets: ReadonlyArray<string>, rebuild: Rebuild, depth: number): unknown => {
  if (typeof value === "string") return redactText(value, secrets)
  if (depth > maxDepth || typeof value !== "object" || value === null) return value
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets, rebuild, depth + 1))
  const prototype = Object.getPrototypeOf(value)
  const isPlain = prototype === Object.prototype || prototype === null
  const isSchemaClass = !isPlain && typeof value.constructor === "function" && "fields" in value.constructor
  if (!isPlain && !isSchemaClass) return value // a Duration, a Date: nothing a server wrote
  const fields: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    if (isSchemaClass && key === "_tag") continue
    fields[key] = scrubValue(field, secrets, rebuild, depth + 1)
  }
  return isSchemaClass ? rebuild(value, fields) : fields
}

/** Whether `value` (as JSON, and its `message`) shows one of `secrets`; a value JSON cannot show does. */
const mentions = (value: { readonly message: string }, secrets: ReadonlyArray<string>): boolean => {
  let shown: string
  try {
    shown = `${JSON.stringify(value)}\n${value.message}`
  } catch {
    return true
  }
  return secrets.some((secret) => shown.includes(secret))
}

/**
 * The error with every secret replaced in every string it carries (plain objects and arrays walked,
 * `Schema.Class` instances made again by `rebuild`, other objects kept); the same error when it holds none.
 *
 * @since 0.1.0
 * @category secrets
 */
export const scrubError = <E extends { readonly message: string }>(
  error: E,
  secrets: ReadonlyArray<string>,
  rebuild: Rebuild
): E => secrets.length === 0 || !mentions(error, secrets) ? error : scrubValue(error, secrets, rebuild, 0) as E
