/**
 * A run's requirements as the command line gives them: `--requirement name=description` (repeatable) and
 * `--mandatory name` (repeatable).
 *
 * @since 0.1.0
 */

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

/**
 * A `--requirement` value read: its name and description.
 *
 * @since 0.1.0
 * @category models
 */
export interface GivenRequirement {
  readonly name: string
  readonly description: string
}

/**
 * The descriptions of `--requirement` and `--mandatory`.
 *
 * @since 0.1.0
 * @category constants
 */
export const requirementDescriptions = {
  requirement: "A requirement on the output, as name=description; repeat for several",
  mandatory: "Make the requirement of this name mandatory; repeat for several"
} as const

/**
 * The `--requirement` values read, or why one is refused: a value without `=`, with an empty name or
 * description, or with the name of an earlier one.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseRequirements = (
  values: ReadonlyArray<string>
):
  | { readonly _tag: "Requirements"; readonly requirements: ReadonlyArray<GivenRequirement> }
  | { readonly _tag: "Invalid"; readonly message: string } =>
{
  const parsed: Array<GivenRequirement> = []
  for (const value of values) {
    const at = value.indexOf("=")
    const name = at < 0 ? "" : value.slice(0, at).trim()
    const description = at < 0 ? "" : value.slice(at + 1).trim()
    if (name === "" || description === "") {
      return {
        _tag: "Invalid",
        message: `--requirement needs name=description, as in "list=Answer as a numbered list"; got "${value}"`
      }
    }
    if (parsed.some((requirement) => requirement.name === name)) {
      return {
        _tag: "Invalid",
        message: `--requirement ${name} is given twice: give each requirement a name of its own`
      }
    }
    parsed.push({ name, description })
  }
  return { _tag: "Requirements", requirements: parsed }
}

/**
 * Why the `--mandatory` names are refused (the first that no `--requirement` has), or `undefined` when each
 * names a requirement.
 *
 * @since 0.1.0
 * @category validation
 */
export const unknownMandatory = (
  given: ReadonlyArray<GivenRequirement>,
  mandatory: ReadonlyArray<string>
): string | undefined => {
  const unknown = mandatory.find((name) => !given.some((requirement) => requirement.name === name))
  return unknown === undefined
    ? undefined
    : `--mandatory ${unknown} names no requirement: add --requirement "${unknown}=..." first`
}

/**
 * The requirements given, each mandatory when `mandatory` names it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const requirementsOf = (
  given: ReadonlyArray<GivenRequirement>,
  mandatory: ReadonlyArray<string>
): ReadonlyArray<Requirement> =>
  given.map(({ description, name }) => ({ name, description, is_mandatory: mandatory.includes(name) }))
