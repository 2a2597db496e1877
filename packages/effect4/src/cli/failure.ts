/**
 * The command's own failures, and the one line it prints for any failure.
 */
import * as Data from "effect/Data"
import * as Runtime from "effect/Runtime"

/**
 * A failure the command explains itself (a missing key, a port in use, Ctrl-C while a run is followed, ...):
 * its message is the line printed on stderr, and its exit code the process's (1 unless given).
 *
 * @since 0.1.0
 * @category errors
 */
export class CliFailure extends Data.TaggedError("CliFailure")<{
  readonly message: string
  readonly exitCode?: number | undefined
}> {
  override get [Runtime.errorExitCode](): number {
    return this.exitCode ?? 1
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/**
 * What to print for a failure: its message (a `StudioError`'s says what to do next), or the failure
 * itself when it has none.
 *
 * @since 0.1.0
 * @category errors
 */
export const describe = (failure: unknown): string => {
  if (isRecord(failure) && typeof failure["message"] === "string" && failure["message"] !== "") {
    const tag = typeof failure["_tag"] === "string" && failure["_tag"] !== "CliFailure" ? `${failure["_tag"]}: ` : ""
    return `${tag}${failure["message"]}`
  }
  return String(failure)
}
