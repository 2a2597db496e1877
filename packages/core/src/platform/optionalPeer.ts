/**
 * Parts of the package that need an optional peer dependency load it when they are used, and say how to
 * install it when it is missing.
 *
 * @since 0.1.0
 */

/**
 * Whether `cause` is Node.js's error for a package that is not installed.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isMissingPackage = (cause: unknown, name: string): boolean =>
  typeof cause === "object" && cause !== null &&
  (cause as { readonly code?: unknown }).code === "ERR_MODULE_NOT_FOUND" &&
  String((cause as { readonly message?: unknown }).message).includes(`'${name}'`)

/**
 * The module `load` gives, or, when the optional package `peer` is missing, an error that names what needs it
 * and the line that installs it (its `code` still `ERR_MODULE_NOT_FOUND`, the original as its `cause`).
 *
 * @since 0.1.0
 * @category loading
 */
export const loadWithPeer = <A>(
  load: () => Promise<A>,
  options: { readonly user: string; readonly peer: string; readonly install: string }
): Promise<A> =>
  load().catch((cause: unknown) => {
    if (!isMissingPackage(cause, options.peer)) throw cause
    throw Object.assign(
      new Error(`${options.user} needs ${options.peer}, an optional dependency: ${options.install}`, { cause }),
      { code: "ERR_MODULE_NOT_FOUND" }
    )
  })
