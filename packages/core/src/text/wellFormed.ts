/**
 * Well-formed text: a string whose every surrogate is half of a pair. Only such a string has a UTF-8 form,
 * so an identifier is checked with this before it is percent-encoded into a URL path (where a lone
 * surrogate makes `encodeURIComponent` throw).
 *
 * @since 0.1.0
 */

/**
 * The UTF-16 offset of the first lone surrogate of `text`, or -1 when it is well-formed.
 *
 * @since 0.1.0
 * @category text
 */
export const loneSurrogateAt = (text: string): number => {
  for (let offset = 0; offset < text.length; offset++) {
    const unit = text.charCodeAt(offset)
    if (unit < 0xd800 || unit > 0xdfff) continue
    if (unit <= 0xdbff) {
      const next = text.charCodeAt(offset + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        offset++
        continue
      }
    }
    return offset
  }
  return -1
}

/**
 * Whether `text` is well-formed (holds no lone surrogate).
 *
 * @since 0.1.0
 * @category text
 */
export const isWellFormed = (text: string): boolean => loneSurrogateAt(text) === -1
