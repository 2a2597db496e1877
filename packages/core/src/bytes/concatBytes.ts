/**
 * Chunks of bytes read one by one, joined.
 *
 * @since 0.1.0
 */

/**
 * The bytes of `parts` as one array, `size` bytes in all (the sum of their lengths): the only part itself
 * when there is one.
 *
 * @since 0.1.0
 * @category constructors
 */
export const concatBytes = (parts: ReadonlyArray<Uint8Array>, size: number): Uint8Array => {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(size)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}
