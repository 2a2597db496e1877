/**
 * What the command says about the service it talks to: the description of `--reference`, the missing key,
 * and an id unknown to the embedded reference service.
 *
 * @since 0.1.0
 */

/**
 * The description of `--reference`.
 *
 * @since 0.1.0
 * @category constants
 */
export const referenceDescription = "Use the reference service embedded in memory (no key, no network; a fresh " +
  "one for each command) instead of the Studio service at STUDIO_BASE_URL with STUDIO_API_KEY"

/**
 * What the command says when STUDIO_API_KEY is not set (or blank): how to set it, and `--reference` only to a
 * command that takes it (`run get`, `run watch` and `assistants update` read a service that keeps runs and
 * assistants, which the fresh embedded one of `--reference` is not).
 *
 * @since 0.1.0
 * @category formatting
 */
export const missingKeyMessage = (takesReference: boolean): string =>
  "STUDIO_API_KEY is not set: export your Studio API key (and STUDIO_BASE_URL for another address)" +
  (takesReference
    ? ", or add --reference to use the embedded reference service"
    : ", or run `studio-effect serve` and export the two lines it prints")

/**
 * What the command says for a `NotFound` with `--reference`: the embedded service is new for each command, so
 * an id from another command is not in it.
 *
 * @since 0.1.0
 * @category formatting
 */
export const unknownInFreshMessage = "NotFound: with --reference each command starts a fresh embedded reference " +
  "service, so an id from another command is not in it. To keep assistants and runs between commands, run " +
  "`studio-effect serve` and set STUDIO_BASE_URL to its address (and STUDIO_API_KEY to any key)"

/**
 * Whether a failure is the service's `NotFound` (its `_tag`).
 *
 * @since 0.1.0
 * @category errors
 */
export const isNotFound = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "NotFound"
