/**
 * Secrets replaced in what the package emits. A server may copy what it was sent (the `Authorization`
 * header, a tool's credential) into anything it answers: a detail, a request id, an answer's `id`. Before
 * such a value reaches an error or a span attribute, every secret of the request is replaced in it.
 *
 * @since 0.1.0
 */

/**
 * What a secret is replaced with, as `Redacted` prints itself.
 *
 * @since 0.1.0
 * @category secrets
 */
export const redactedText = "<redacted>"

/**
 * `text` with every one of `secrets` replaced (longest first, as given, so that a secret holding another is
 * replaced whole).
 *
 * @since 0.1.0
 * @category secrets
 */
export const redactText = (text: string, secrets: ReadonlyArray<string>): string => {
  let result = text
  for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(redactedText)
  return result
}

const redactValue = (value: unknown, secrets: ReadonlyArray<string>): unknown =>
  typeof value === "string"
    ? redactText(value, secrets)
    : Array.isArray(value)
    ? value.map((item) => typeof item === "string" ? redactText(item, secrets) : item)
    : value

/**
 * Span attributes with every secret replaced in their string values (and in arrays of strings, the
 * attribute values OpenTelemetry allows); the same object when none holds a secret.
 *
 * @since 0.1.0
 * @category secrets
 */
export const redactAttributes = <A extends Readonly<Record<string, unknown>>>(
  attributes: A,
  secrets: ReadonlyArray<string>
): A => {
  if (secrets.length === 0) return attributes
  let out: Record<string, unknown> | undefined
  for (const key in attributes) {
    const value = attributes[key]
    const redacted = redactValue(value, secrets)
    const changed = typeof value === "string"
      ? redacted !== value
      : Array.isArray(value) && (redacted as Array<unknown>).some((item, i) => item !== value[i])
    if (changed) (out ??= { ...attributes })[key] = redacted
  }
  return (out ?? attributes) as A
}
