/**
 * What an answer said besides its value, as the `…WithResponse` variants give it: the status, the headers,
 * the request id the service gave it, and the rate-limit figures of the key. Read once from the answer's
 * headers, within the bounds an error's headers keep (`answerHeaders`), and scrubbed of the request's
 * secrets as an error is: a server that echoes the key in a header shows `<redacted>` instead.
 *
 * @since 1.0.0
 */
import { answerHeaders } from "../failure/answerHeaders.js"
import { redactText } from "../secrets/redactSecrets.js"
import { type RateLimitFigures, rateLimitOf } from "./rateLimit.js"
import { requestIdOf } from "./responseErrors.js"

/**
 * An answer's metadata: its status, its headers (names in lower case), the request id the service gave it,
 * and the rate-limit figures of the key.
 *
 * @since 1.0.0
 * @category models
 */
export interface ResponseMetadata {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly requestId: string | undefined
  readonly rateLimit: RateLimitFigures
}

/**
 * The metadata of an answer with `status` and `headers`, every header value scrubbed of `secrets` (the
 * request's, longest first, as `secretsOf` gives them).
 *
 * @since 1.0.0
 * @category parsing
 */
export const responseMetadata = (
  status: number,
  headers: Readonly<Record<string, unknown>>,
  secrets: ReadonlyArray<string>
): ResponseMetadata => {
  const kept = answerHeaders(headers)
  if (secrets.length > 0) { for (const name of Object.keys(kept)) kept[name] = redactText(kept[name]!, secrets) }
  return { status, headers: kept, requestId: requestIdOf(kept), rateLimit: rateLimitOf(kept) }
}
