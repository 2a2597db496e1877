/**
 * `--requirement name=description` (repeatable) and `--mandatory name`, read as a run's requirements.
 */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Effect from "effect/Effect"
import * as Requirements from "studio-effect-core/cli/requirements"

const invalid = (message: string) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(message)))

/**
 * The requirements of `--requirement` and `--mandatory`; a value without `=`, an empty name or
 * description, a repeated name, or a `--mandatory` name that no `--requirement` has is refused.
 *
 * @since 0.1.0
 * @category options
 */
export const requirements: Options.Options<ReadonlyArray<Requirements.Requirement>> = Options.all({
  given: Options.text("requirement").pipe(
    Options.withAlias("r"),
    Options.repeated,
    Options.withDefault<ReadonlyArray<string>>([]),
    Options.withDescription(Requirements.requirementDescriptions.requirement)
  ),
  mandatory: Options.text("mandatory").pipe(
    Options.repeated,
    Options.withDefault<ReadonlyArray<string>>([]),
    Options.withDescription(Requirements.requirementDescriptions.mandatory)
  )
}).pipe(Options.mapEffect(({ given, mandatory }) => {
  const parsed = Requirements.parseRequirements(given)
  if (parsed._tag === "Invalid") return invalid(parsed.message)
  const refusal = Requirements.unknownMandatory(parsed.requirements, mandatory)
  return refusal === undefined
    ? Effect.succeed(Requirements.requirementsOf(parsed.requirements, mandatory))
    : invalid(refusal)
}))
