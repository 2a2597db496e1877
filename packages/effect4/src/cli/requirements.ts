/**
 * `--requirement name=description` (repeatable) and `--mandatory name`, read as a run's requirements.
 */
import * as CliError from "effect/cli/CliError"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Requirements from "studio-effect-core/cli/requirements"

const invalid = (message: string) => Effect.fail(new CliError.ValidationError({ message }))

const given = Flag.String("requirement").pipe(
  Flag.withAlias("r"),
  Flag.atLeast(0),
  Flag.withDescription(Requirements.requirementDescriptions.requirement),
  Flag.mapEffect((values) => {
    const parsed = Requirements.parseRequirements(values)
    return parsed._tag === "Invalid" ? invalid(parsed.message) : Effect.succeed(parsed.requirements)
  })
)

const mandatory = Flag.String("mandatory").pipe(
  Flag.atLeast(0),
  Flag.withDescription(Requirements.requirementDescriptions.mandatory)
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
  readonly given: ReadonlyArray<Requirements.GivenRequirement>
  readonly mandatory: ReadonlyArray<string>
}

/**
 * Refuses a `--mandatory` name that no `--requirement` has, for `Command.validate`.
 *
 * @since 0.1.0
 * @category options
 */
export const checkMandatory = ({ given, mandatory }: RequirementFlags): Effect.Effect<void, CliError.CliError> => {
  const refusal = Requirements.unknownMandatory(given, mandatory)
  return refusal === undefined ? Effect.void : invalid(refusal)
}

/**
 * The requirements of a command's `--requirement` and `--mandatory` flags, checked by `checkMandatory`.
 *
 * @since 0.1.0
 * @category options
 */
export const requirementsOf = ({ given, mandatory }: RequirementFlags): ReadonlyArray<Requirements.Requirement> =>
  Requirements.requirementsOf(given, mandatory)
