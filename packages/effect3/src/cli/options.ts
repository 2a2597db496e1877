/**
 * Options whose errors name the option, the value it was given and what it takes (`@effect/cli`'s own say
 * only `'2.5' is not a integer` or `Expected one of the following cases: ...`, naming neither).
 */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Effect from "effect/Effect"

const invalid = (name: string, value: string, expected: string) =>
  Effect.fail(ValidationError.invalidValue(HelpDoc.p(`Invalid value for --${name}: '${value}'; expected ${expected}`)))

/**
 * `--name <integer>`: a whole number.
 *
 * @since 0.1.0
 * @category options
 */
export const integer = (name: string): Options.Options<number> =>
  Options.text(name).pipe(
    Options.withPseudoName("integer"),
    Options.mapEffect((value) => {
      const number = Number(value)
      return /^\s*[+-]?\d+\s*$/.test(value) && Number.isSafeInteger(number)
        ? Effect.succeed(number)
        : invalid(name, value, "a whole number")
    })
  )

/**
 * `--name <number>`: a finite number.
 *
 * @since 0.1.0
 * @category options
 */
export const number = (name: string): Options.Options<number> =>
  Options.text(name).pipe(
    Options.withPseudoName("number"),
    Options.mapEffect((value) => {
      const number = Number(value)
      return value.trim() !== "" && Number.isFinite(number) ? Effect.succeed(number) : invalid(name, value, "a number")
    })
  )

const isOneOf = <A extends string>(choices: ReadonlyArray<A>, value: string): value is A =>
  (choices as ReadonlyArray<string>).includes(value)

/**
 * `--name <choice>`: one of `choices`.
 *
 * @since 0.1.0
 * @category options
 */
export const choice = <const A extends string>(name: string, choices: ReadonlyArray<A>): Options.Options<A> =>
  Options.text(name).pipe(
    Options.withPseudoName(choices.join("|")),
    Options.mapEffect((value) =>
      isOneOf(choices, value) ? Effect.succeed(value) : invalid(name, value, `one of ${choices.join(", ")}`)
    )
  )

/**
 * `--name <choice>`, repeated: each one of `choices`; none when not given.
 *
 * @since 0.1.0
 * @category options
 */
export const choices = <const A extends string>(
  name: string,
  choices: ReadonlyArray<A>
): Options.Options<ReadonlyArray<A>> =>
  Options.text(name).pipe(
    Options.withPseudoName(choices.join("|")),
    Options.repeated,
    Options.withDefault<ReadonlyArray<string>>([]),
    Options.mapEffect((values) => {
      const chosen: Array<A> = []
      for (const value of values) {
        if (!isOneOf(choices, value)) return invalid(name, value, `one of ${choices.join(", ")}`)
        chosen.push(value)
      }
      return Effect.succeed(chosen)
    })
  )
