/**
 * The command's own failures, and the one line it prints for any failure.
 */
import * as Data from "effect/Data"
import { failureLine } from "studio-effect-core/failure/failureLine"

/**
 * A failure the command explains itself (a missing key, a port in use, Ctrl-C while a run is followed, ...):
 * its message is the line printed on stderr, and its exit code the process's (`exitCodes.failure` unless given: `runtime.ts`).
 *
 * @since 0.1.0
 * @category errors
 */
export class CliFailure extends Data.TaggedError("CliFailure")<{
  readonly message: string
  readonly exitCode?: number | undefined
}> {}

/**
 * What to print for a failure, on one line: a `CliFailure`'s message, another error's tag and message (a
 * `StudioError`'s says what to do next), or the failure itself when it has none.
 *
 * @since 0.1.0
 * @category errors
 */
export const describe = (failure: unknown): string =>
  failureLine(failure instanceof CliFailure ? failure.message : failure)
