/**
 * What `studio-effect run` says and sends: its commands' and arguments' descriptions, why it has no run to
 * start, and the request that starts one.
 *
 * @since 0.1.0
 */

/**
 * The descriptions of the `run` command, its subcommands, and their arguments.
 *
 * @since 0.1.0
 * @category constants
 */
export const runDescriptions = {
  command: "Start an orchestration run, follow it, and print its result and requirement scores; Ctrl-C stops " +
    "following it and says how to pick it up (`run watch`)",
  get: "Print a run as JSON, as it is now (the service at STUDIO_BASE_URL)",
  watch: "Follow a run to its end and print its result and requirement scores, as `run` does (the service at " +
    "STUDIO_BASE_URL)",
  instruction: "What the run should do",
  runId: "The run's id, as `run` prints it"
} as const

/**
 * What `run` says when it is given no instruction.
 *
 * @since 0.1.0
 * @category formatting
 */
export const noInstructionMessage = "No instruction: give one (studio-effect run \"Write two tips\"), or pick up " +
  "a run with `studio-effect run watch <run-id>`"

/**
 * The request that starts a run of `instruction`: with the requirements given, the budget when given, and the
 * extra fields asked for (the requirement scores whenever there are requirements).
 *
 * @since 0.1.0
 * @category constructors
 */
export const runRequest = <R, B, I extends string>(
  instruction: string,
  requirements: ReadonlyArray<R>,
  budget: B | undefined,
  include: ReadonlyArray<I>
) => {
  const includes = new Set<I | "requirements_result">(include)
  if (requirements.length > 0) includes.add("requirements_result")
  return {
    input: instruction,
    ...(requirements.length > 0 ? { requirements } : {}),
    ...(budget === undefined ? {} : { budget }),
    ...(includes.size > 0 ? { include: [...includes] } : {})
  }
}
