/**
 * Hidden classes kept for the life of the process. V8 drops the hidden class of a kind of object once no
 * object of that kind is left, and with it the optimized code specialized on it (`--trace-deopt`: "embedded
 * weak objects cleared"). Between two streams nothing of a stream is left, so each full collection sent the
 * event path (the SSE parser, the check of a chunk, the text of its first choice) back to being optimized
 * again while the next stream ran. One object of each kind kept here keeps its class, and the code. Measured
 * reason: `bench/HISTORY.md`, "The event path's hidden classes kept".
 *
 * @since 1.1.0
 */

/** The most objects kept: the callers keep one of each kind they know, once (four in all today). */
const maxKept = 16

/** What is kept: objects that hold no caller data. */
const kept: Array<object> = []

/**
 * Keeps `value` for the life of the process (for objects that hold no caller data), up to 16 objects.
 *
 * @since 1.1.0
 * @category engine
 */
export const keepHiddenClass = (value: object): void => {
  if (kept.length < maxKept) kept.push(value)
}

const blankValue = (_key: string, value: unknown): unknown =>
  typeof value === "string" ? "" : typeof value === "number" ? 0 : value

/**
 * A blank copy of `value`, a plain object such as `JSON.parse` makes: the same keys in the same order and
 * nesting (and so, made by `JSON.parse` as well, the same hidden classes), every string empty, every number
 * zero.
 *
 * @since 1.1.0
 * @category engine
 */
export const blankCopy = <A extends object>(value: A): A => JSON.parse(JSON.stringify(value, blankValue))
