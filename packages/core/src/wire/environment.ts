/**
 * The environment variables the SDK reads: its own `STUDIO_` names, and the names the official SDKs read as
 * their aliases, so that a project moving from them keeps its environment. An alias is read only when the
 * `STUDIO_` name is missing or empty: the `STUDIO_` names win.
 *
 * @since 1.1.0
 */

/**
 * Where the API key is read, in order: `STUDIO_API_KEY`, then `AI21_API_KEY`.
 *
 * @since 1.1.0
 * @category environment
 */
export const apiKeyVariables = ["STUDIO_API_KEY", "AI21_API_KEY"] as const

/**
 * Where the service's address is read, in order: `STUDIO_BASE_URL`, then `AI21_API_HOST` (the official SDKs'
 * host, such as `https://api.ai21.com`, which is a base URL of the same shape).
 *
 * @since 1.1.0
 * @category environment
 */
export const baseUrlVariables = ["STUDIO_BASE_URL", "AI21_API_HOST"] as const

/**
 * The value of the first of `names` that is set and not blank in `environment`, or `undefined`.
 *
 * @since 1.1.0
 * @category environment
 */
export const firstSet = (
  environment: Readonly<Record<string, string | undefined>>,
  names: ReadonlyArray<string>
): string | undefined => {
  for (const name of names) {
    const value = environment[name]
    if (value !== undefined && value.trim() !== "") return value
  }
  return undefined
}
