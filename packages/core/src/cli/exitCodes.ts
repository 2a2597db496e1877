/**
 * The command's exit codes, which tell apart a usage error, a refused key and a failure of the service, as
 * `gh` does (1 a failure, 2 a usage error, 4 authentication), and the words its help says about them.
 *
 * @since 0.2.0
 */

/**
 * The exit code of each outcome.
 *
 * @since 0.2.0
 * @category constants
 */
export const exitCodes = {
  /** The command did what was asked (or its stdout's reader closed it, or Ctrl-C ended `serve`). */
  success: 0,
  /** The service failed or refused the request (not found, invalid, rate limited, unreachable, ...). */
  failure: 1,
  /** The command line is wrong: an unknown option, a bad value, a missing argument. */
  usage: 2,
  /** No key, or the service refused the key (401, 403). */
  auth: 4,
  /** Ctrl-C while a run is followed: the run goes on in the service. */
  stopped: 130
} as const

/**
 * The exit code of a failure that is not the command's own: 4 for the service's `AuthError` (401, 403), 1
 * otherwise.
 *
 * @since 0.2.0
 * @category errors
 */
export const exitCodeOf = (failure: unknown): number =>
  typeof failure === "object" && failure !== null && (failure as { _tag?: unknown })._tag === "AuthError"
    ? exitCodes.auth
    : exitCodes.failure

/**
 * What the root help says about the exit codes, one sentence.
 *
 * @since 0.2.0
 * @category constants
 */
export const exitCodesDescription = `Exit codes: ${exitCodes.success} success, ${exitCodes.failure} the service ` +
  `failed, ${exitCodes.usage} usage error, ${exitCodes.auth} no key or a refused key (401/403), ` +
  `${exitCodes.stopped} Ctrl-C while a run is followed.`
