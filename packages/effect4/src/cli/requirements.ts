/**
 * `--requirement name=description` (repeatable) and `--mandatory name`, read as a run's requirements.
 */
import * as CliError from "effect/cli/CliError"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"

/**
 * A requirement as the command line gives it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Requirement {
  readonly name: string
  readonly description: string
  readonly is_mandatory: boolean
}

const invalid = (message: string) => Effect.fail(new CliError.ValidationError({ message }))

const given = Flag.String("requirement").pipe(
  Flag.atLeast(0),
  Flag.withDescription("A requirement on the output, as name=description; repeat for several"),
  Flag.mapEffect((values) =>
    Effect.gen(function*() {
      const parsed: Array<{ readonly name: string; readonly description: string }> = []
      for (const value of values) {
        const at = value.indexOf("=")
        const name = at < 0 ? "" : value.slice(0, at).trim()
        const description = at < 0 ? "" : value.slice(at + 1).trim()
        if (name === "" || description === "") {
          return yield* invalid(
            `--requirement needs name=description, as in "list=Answer as a numbered list"; got "${value}"`
          )
        }
        if (parsed.some((requirement) => requirement.name === name)) {
          return yield* invalid(`--requirement ${name} is given twice: give each requirement a name of its own`)
        }
        parsed.push({ name, description })
      }
      return parsed
    })
  )
)

const mandatory = Flag.String("mandatory").pipe(
  Flag.atLeast(0),
  Flag.withDescription("Make the requirement of this name mandatory; repeat for several")
)

/**
 * The flags `--requirement` and `--mandatory`, for a command's configuration: a value without `=`, an
 * empty name or description, or a repeated name is refused.
 *
 * @since 0.1.0
 * @category options
 */
export const requirements = { given, mandatory }

/**
 * What `requirements` gives a command.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequirementFlags {
  readonly given: ReadonlyArray<{ readonly name: string; readonly description: string }>
  readonly mandatory: ReadonlyArray<string>
}

/**
 * Refuses a `--mandatory` name that no `--requirement` has, for `Command.validate`.
 *
 * @since 0.1.0
 * @category options
 */
export const checkMandatory = ({ given, mandatory }: RequirementFlags): Effect.Effect<void, CliError.CliError> => {
  const unknown = mandatory.find((name) => !given.some((requirement) => requirement.name === name))
  return unknown === undefined
    ? Effect.void
    : invalid(`--mandatory ${unknown} names no requirement: add --requirement "${unknown}=..." first`)
}

/**
 * The requirements of a command's `--requirement` and `--mandatory` flags, checked by `checkMandatory`.
 *
 * @since 0.1.0
 * @category options
 */
export const requirementsOf = ({ given, mandatory }: RequirementFlags): ReadonlyArray<Requirement> =>
  given.map(({ description, name }) => ({ name, description, is_mandatory: mandatory.includes(name) }))
