/**
 * `--requirement name=description` (repeatable) and `--mandatory name`, read as a run's requirements.
 */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
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

const invalid = (message: string) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(message)))

/**
 * The requirements of `--requirement` and `--mandatory`; a value without `=`, an empty name or
 * description, a repeated name, or a `--mandatory` name that no `--requirement` has is refused.
 *
 * @since 0.1.0
 * @category options
 */
export const requirements: Options.Options<ReadonlyArray<Requirement>> = Options.all({
  given: Options.text("requirement").pipe(
    Options.repeated,
    Options.withDefault<ReadonlyArray<string>>([]),
    Options.withDescription("A requirement on the output, as name=description; repeat for several")
  ),
  mandatory: Options.text("mandatory").pipe(
    Options.repeated,
    Options.withDefault<ReadonlyArray<string>>([]),
    Options.withDescription("Make the requirement of this name mandatory; repeat for several")
  )
}).pipe(Options.mapEffect(({ given, mandatory }) =>
  Effect.gen(function*() {
    const parsed: Array<Requirement> = []
    for (const value of given) {
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
      parsed.push({ name, description, is_mandatory: mandatory.includes(name) })
    }
    const unknown = mandatory.find((name) => !parsed.some((requirement) => requirement.name === name))
    if (unknown !== undefined) {
      return yield* invalid(`--mandatory ${unknown} names no requirement: add --requirement "${unknown}=..." first`)
    }
    return parsed
  })
))
