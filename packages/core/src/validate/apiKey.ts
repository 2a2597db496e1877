/**
 * The characters an API key may hold. The key travels as `Authorization: Bearer <key>`, and transports
 * disagree on anything but printable ASCII in a header value: `fetch` strips a trailing CR or LF (a key
 * read from a file often ends in one) and sends the rest, undici refuses the whole request. So a key is
 * checked once, before anything is sent, and the same everywhere.
 *
 * @since 0.1.0
 */

/** The names of the control characters a key most often picks up by mistake. */
const named: Readonly<Record<number, string>> = {
  0x09: "a tab",
  0x0a: "a line feed",
  0x0d: "a carriage return",
  0x20: "a space",
  0xa0: "a no-break space",
  0xfeff: "a byte order mark"
}

/**
 * What is wrong with `key` as an API key, or `undefined` when every character is printable ASCII (U+0021 to
 * U+007E). The answer names the first character refused and where it is, never the key.
 *
 * @since 0.1.0
 * @category validation
 */
export const apiKeyProblem = (key: string): string | undefined => {
  for (let offset = 0; offset < key.length; offset++) {
    const code = key.charCodeAt(offset)
    if (code >= 0x21 && code <= 0x7e) continue
    const what = named[code] ?? `the character U+${code.toString(16).toUpperCase().padStart(4, "0")}`
    const where = offset === key.length - 1 ? "at its end" : offset === 0 ? "at its start" : `at offset ${offset}`
    return `the API key holds ${what} ${where}: a key is printable ASCII only (a line break or a space at ` +
      "either end often comes from reading it from a file or a terminal)"
  }
  return undefined
}
