/**
 * A command's parsed flags as the core's request builders take them: an optional flag the user left out is
 * `undefined` rather than an `Option`. Both Effect majors' `Option` is `{ _tag: "Some", value }` or
 * `{ _tag: "None" }`, which is all this reads.
 *
 * @since 1.0.0
 */

/** An optional flag's value as both Effect majors' CLI modules give it. */
export type OptionalFlag<A> = { readonly _tag: "Some"; readonly value: A } | { readonly _tag: "None" }

/** The flags with each optional one as its value or `undefined`. */
export type FlagValues<T> = {
  readonly [K in keyof T]: T[K] extends OptionalFlag<infer A> ? A | undefined : T[K]
}

const isOptionalFlag = (value: unknown): value is OptionalFlag<unknown> =>
  typeof value === "object" && value !== null && "_tag" in value &&
  (value._tag === "None" || (value._tag === "Some" && "value" in value))

/**
 * The flags with each optional one as its value or `undefined`, the others as they are.
 *
 * @since 1.0.0
 */
export const flagValues = <T extends object>(flags: T): FlagValues<T> =>
  Object.fromEntries(
    Object.entries(flags).map((
      [name, value]
    ) => [name, isOptionalFlag(value) ? (value._tag === "Some" ? value.value : undefined) : value])
  ) as FlagValues<T>
