/** Splitting a body into reads, as a network may deliver it. */

/** Splits bytes at the given cut points (taken modulo the length; some may fall inside a UTF-8 sequence). */
export const splitAt = (bytes: Uint8Array, cuts: ReadonlyArray<number>): Array<Uint8Array> => {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)
  const parts: Array<Uint8Array> = []
  let start = 0
  for (const point of points) {
    parts.push(bytes.slice(start, point))
    start = point
  }
  parts.push(bytes.slice(start))
  return parts
}
