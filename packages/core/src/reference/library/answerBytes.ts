/**
 * The size of a search's answer as JSON, counted before it is written: the bytes (UTF-8) a text takes
 * inside a JSON string, escapes included (a control character takes 6), and the longest start of a text
 * that fits in a number of them. A search answers within a byte bound with these, whatever its files hold.
 */

/** The bytes one code point takes inside a JSON string as `JSON.stringify` writes it, in UTF-8. */
const codePointBytes = (code: number): number => {
  if (code === 0x22 || code === 0x5c) return 2 // \" and \\
  if (code < 0x20) return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6
  if (code < 0x80) return 1
  if (code < 0x800) return 2
  if (code >= 0xd800 && code <= 0xdfff) return 6 // a lone surrogate is written \udxxx
  return code < 0x10000 ? 3 : 4
}

/** The bytes `text` takes inside a JSON string (without its quotes). */
export const jsonTextBytes = (text: string): number => {
  let bytes = 0
  for (const point of text) bytes += codePointBytes(point.codePointAt(0)!)
  return bytes
}

const encoder = new TextEncoder()

/** The bytes a (small) value takes as JSON, in UTF-8. */
export const jsonBytes = (value: unknown): number => encoder.encode(JSON.stringify(value)).length

/** The longest start of `text`, whole code points, that takes at most `maxBytes` inside a JSON string. */
const startWithin = (text: string, maxBytes: number): string => {
  let bytes = 0
  let end = 0
  for (const point of text) {
    bytes += codePointBytes(point.codePointAt(0)!)
    if (bytes > maxBytes) break
    end += point.length
  }
  return text.slice(0, end)
}

/** A text made within a bound: the text, the bytes it takes inside a JSON string, and whether it was cut. */
export interface BoundedText {
  readonly text: string
  readonly bytes: number
  readonly cut: boolean
}

/**
 * `pieces` joined by `separator`, as far as they fit in `maxBytes` inside a JSON string: the pieces that fit
 * whole, then the start of the next one that fits. Pieces after the bound are never read.
 */
export const joinWithin = (pieces: Iterable<string>, separator: string, maxBytes: number): BoundedText => {
  const separatorBytes = jsonTextBytes(separator)
  const out: Array<string> = []
  let used = 0
  for (const piece of pieces) {
    const gap = out.length === 0 ? 0 : separatorBytes
    const bytes = jsonTextBytes(piece)
    if (used + gap + bytes <= maxBytes) {
      out.push(piece)
      used += gap + bytes
      continue
    }
    const start = used + gap < maxBytes ? startWithin(piece, maxBytes - used - gap) : ""
    if (start !== "") {
      out.push(start)
      used += gap + jsonTextBytes(start)
    }
    return { text: out.join(separator), bytes: used, cut: true }
  }
  return { text: out.join(separator), bytes: used, cut: false }
}
