/**
 * Text cut by code points: the one place where the package (the reference service and the SDK's messages)
 * shortens, splits or stops text, so that nothing it writes holds half of a surrogate pair made from
 * well-formed input.
 *
 * @since 0.1.0
 */

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff

/**
 * Whether `index` (a UTF-16 offset) lies between the two halves of a surrogate pair, where a cut would
 * leave a lone surrogate on each side.
 *
 * @since 0.1.0
 * @category code points
 */
export const splitsPair = (text: string, index: number): boolean =>
  index > 0 && index < text.length && isHigh(text.charCodeAt(index - 1)) && isLow(text.charCodeAt(index))

/**
 * The UTF-16 offset just after the first `count` code points of `text` (its length when it has fewer).
 *
 * @since 0.1.0
 * @category code points
 */
export const offsetOf = (text: string, count: number): number => {
  let offset = 0
  for (let n = 0; n < count && offset < text.length; n++) {
    offset += isHigh(text.charCodeAt(offset)) && isLow(text.charCodeAt(offset + 1)) ? 2 : 1
  }
  return offset
}

/**
 * The first `count` code points of `text`.
 *
 * @since 0.1.0
 * @category code points
 */
export const take = (text: string, count: number): string => text.slice(0, offsetOf(text, Math.max(0, count)))

/**
 * How many code points `text` has, counting no further than `atMost` (so that a bound check of a long
 * text costs no more than the bound).
 *
 * @since 0.1.0
 * @category code points
 */
export const length = (text: string, atMost = Infinity): number => {
  let n = 0
  for (let offset = 0; offset < text.length && n < atMost; n++) {
    offset += isHigh(text.charCodeAt(offset)) && isLow(text.charCodeAt(offset + 1)) ? 2 : 1
  }
  return n
}

/**
 * `text` in at most `max` code points: cut, with `…` as its last code point, when it is longer.
 *
 * @since 0.1.0
 * @category code points
 */
export const clip = (text: string, max: number): string =>
  length(text, max + 1) <= max ? text : `${take(text, max - 1).trimEnd()}…`

/**
 * Consecutive pieces of `text` of at most `size` code points each (one empty piece for an empty text).
 *
 * @since 0.1.0
 * @category code points
 */
export const pieces = (text: string, size: number): ReadonlyArray<string> => {
  const out: Array<string> = []
  let start = 0
  while (start < text.length) {
    const end = start + offsetOf(text.slice(start, start + 2 * size), size)
    out.push(text.slice(start, end))
    start = end
  }
  return out.length === 0 ? [""] : out
}

/**
 * The first offset at or after `from` where `sequence` occurs starting on a code point boundary, or -1. A
 * sequence that begins with a lone low surrogate never matches the second half of a pair.
 *
 * @since 0.1.0
 * @category code points
 */
export const indexOf = (text: string, sequence: string, from = 0): number => {
  let at = text.indexOf(sequence, from)
  while (at !== -1 && (splitsPair(text, at) || splitsPair(text, at + sequence.length))) {
    at = text.indexOf(sequence, at + 1)
  }
  return at
}
