/**
 * The headers every request of a client carries unless the call sets its own.
 *
 * @since 0.1.0
 */

/**
 * A client's default headers, in the order they override each other: the `User-Agent` of the SDK's version,
 * `Accept: application/json`, the bearer auth of the API key (when there is one), then the user's own
 * headers over all of them.
 *
 * @since 0.1.0
 * @category constructors
 */
export const defaultHeaders = (
  version: string,
  apiKey: string | undefined,
  headers: Readonly<Record<string, string>> | undefined
): Record<string, string> => ({
  "User-Agent": `studio-effect/${version}`,
  "Accept": "application/json",
  ...(apiKey === undefined ? {} : { "Authorization": `Bearer ${apiKey}` }),
  ...headers
})
