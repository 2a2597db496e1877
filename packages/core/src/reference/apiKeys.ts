/**
 * The API keys `studio-effect serve` accepts, as given outside its command line (where `ps` shows them): an
 * environment variable holding a comma-separated list, and a file with one key per line. A key is the
 * bearer token a client sends: text without whitespace. Messages about a key never quote it.
 *
 * @since 0.1.0
 */

/**
 * The environment variable of accepted keys, comma separated.
 *
 * @since 0.1.0
 * @category constants
 */
export const apiKeysVariable = "STUDIO_SERVE_API_KEYS"

/**
 * The largest key file read, in bytes.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxApiKeyFileBytes = 1024 * 1024

/**
 * Keys read from a list, or why the list is refused.
 *
 * @since 0.1.0
 * @category models
 */
export type ApiKeyList =
  | { readonly _tag: "Keys"; readonly keys: ReadonlyArray<string> }
  | { readonly _tag: "Invalid"; readonly message: string }

const read = (entries: ReadonlyArray<string>, where: (index: number) => string): ApiKeyList => {
  const keys: Array<string> = []
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!.trim()
    if (entry === "") continue
    if (/\s/u.test(entry)) return { _tag: "Invalid", message: `${where(index)} holds whitespace inside a key` }
    keys.push(entry)
  }
  return { _tag: "Keys", keys }
}

/**
 * The keys of a comma-separated list (the environment variable); blank entries are skipped.
 *
 * @since 0.1.0
 * @category parsing
 */
export const keysOfList = (text: string): ApiKeyList => read(text.split(","), (index) => `entry ${index + 1}`)

/**
 * The keys of a key file: one per line; blank lines and lines starting with `#` are skipped.
 *
 * @since 0.1.0
 * @category parsing
 */
export const keysOfFile = (text: string): ApiKeyList =>
  read(
    text.split(/\r?\n/u).map((line) => line.trimStart().startsWith("#") ? "" : line),
    (index) => `line ${index + 1}`
  )
