/**
 * What `studio-effect serve` reads and says: its options' descriptions and bounds, the keys it accepts from
 * its key file and environment variable, the lines it prints once listening, and why it could not start.
 *
 * @since 0.1.0
 */
import { type ApiKeyList, apiKeysVariable, keysOfFile, keysOfList, maxApiKeyFileBytes } from "../reference/apiKeys.js"
import type { Example } from "./help.js"

/**
 * The descriptions of the options that are not whole-number bounds, and of the command.
 *
 * @since 0.1.0
 * @category constants
 */
export const serveDescriptions = {
  command: "Serve the reference service over HTTP until interrupted (Ctrl-C)",
  port: "The port to listen on, 0 picks a free one (default: 8080)",
  host: "The interface to bind (default: 127.0.0.1)",
  apiKey: `Accept this key; repeat for several. Prefer ${apiKeysVariable} or --api-key-file: ` +
    "a key on the command line shows in the process list",
  apiKeyFile: "Accept the keys of this file, one per line (blank lines and # comments skipped)",
  rateLimit: "At most n requests per key in each window of s seconds, as n or n/s (s defaults to 60)",
  log: "Log one line per request answered: its method, address and status"
} as const

/**
 * The examples of `serve`'s help.
 *
 * @since 0.2.0
 * @category constants
 */
export const serveExamples: ReadonlyArray<Example> = [
  { command: "studio-effect serve", description: "On 127.0.0.1:8080, any key accepted" },
  {
    command: "STUDIO_SERVE_API_KEYS=key-1,key-2 studio-effect serve -p 0",
    description: "On a free port, accepting two keys"
  }
]

/**
 * An option taking a whole number of at least `minimum`.
 *
 * @since 0.1.0
 * @category models
 */
export interface WholeNumberOption {
  readonly name: string
  readonly description: string
  readonly minimum: number
}

/**
 * The options taking a whole number, by their key in the command's configuration.
 *
 * @since 0.1.0
 * @category constants
 */
export const wholeNumberOptions = {
  seed: {
    name: "seed",
    description: "The seed of the built-in model (default 0) and of identifiers (random when not given)",
    minimum: 0
  },
  runStepMs: {
    name: "run-step-ms",
    description: "The duration of one run step, in milliseconds (default 200)",
    minimum: 0
  },
  streamDelayMs: {
    name: "stream-delay-ms",
    description: "The pause between streamed events, in milliseconds (default 0)",
    minimum: 0
  },
  maxBodyBytes: {
    name: "max-body-bytes",
    description: "The largest request body accepted; a larger one gets 413 (default 1048576)",
    minimum: 1
  },
  maxPendingBodyBytes: {
    name: "max-pending-body-bytes",
    description: "The most bytes held by request bodies still arriving, all together; past it, 503 (default 33554432)",
    minimum: 1
  },
  maxConnections: {
    name: "max-connections",
    description: "The most open connections; past it, a new one is closed at once (default 1024)",
    minimum: 1
  },
  headersTimeoutMs: {
    name: "headers-timeout-ms",
    description: "How long a client may take to send a request's headers; past it, 408 (default 10000)",
    minimum: 1
  },
  requestTimeoutMs: {
    name: "request-timeout-ms",
    description: "How long a client may take to send a whole request; past it, 408 (default 60000)",
    minimum: 1
  },
  maxTenants: {
    name: "max-tenants",
    description: "The most accepted keys whose assistants and runs are kept at once (default 100)",
    minimum: 1
  }
} as const satisfies Record<string, WholeNumberOption>

/**
 * Why a whole-number option's value is refused, or `undefined` when it is at least the option's minimum.
 *
 * @since 0.1.0
 * @category validation
 */
export const wholeNumberRefusal = (option: WholeNumberOption, value: number): string | undefined =>
  value < option.minimum ? `--${option.name} needs a whole number of at least ${option.minimum}` : undefined

/**
 * The port the service listens on when `--port` is not given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultPort = 8080

/**
 * The interface the service binds when `--host` is not given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultHost = "127.0.0.1"

/**
 * Why a `--port` value is refused, or `undefined` when it is a port (0 picks a free one).
 *
 * @since 0.1.0
 * @category validation
 */
export const portRefusal = (port: number): string | undefined =>
  port >= 0 && port <= 65535 ? undefined : "--port needs a number from 0 to 65535"

/**
 * A `--rate-limit` value, `n` or `n/s`: at most `limit` requests in each window of `seconds` seconds (60 when
 * not given); a message saying why when it is refused.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseRateLimit = (
  text: string
):
  | { readonly _tag: "RateLimit"; readonly limit: number; readonly seconds: number }
  | { readonly _tag: "Invalid"; readonly message: string } =>
{
  const match = /^(\d+)(?:\/(\d+))?$/.exec(text)
  return match === null || Number(match[2] ?? 60) === 0
    ? { _tag: "Invalid", message: `--rate-limit needs <requests> or <requests>/<seconds>, as in 10/2; got "${text}"` }
    : { _tag: "RateLimit", limit: Number(match[1]), seconds: Number(match[2] ?? 60) }
}

/**
 * The `code` of a Node.js error (`EADDRINUSE`, `ENOENT`, ...), or `undefined` when it has none.
 *
 * @since 0.1.0
 * @category errors
 */
export const errorCode = (cause: unknown): unknown =>
  typeof cause === "object" && cause !== null && "code" in cause ? cause.code : undefined

const invalid = (message: string): ApiKeyList => ({ _tag: "Invalid", message })

const withPlace = (list: ApiKeyList, where: string): ApiKeyList =>
  list._tag === "Keys" ? list : invalid(`${where}: ${list.message}`)

/**
 * The keys of the environment variable's value; a refusal names the variable.
 *
 * @since 0.1.0
 * @category parsing
 */
export const keysOfVariable = (value: string): ApiKeyList => withPlace(keysOfList(value), apiKeysVariable)

/**
 * What `readKeyFile` (and `chat`'s `readDocument`) read a file with: a file opened for reading (as
 * `node:fs/promises` opens one).
 *
 * @since 0.1.0
 * @category models
 */
export interface KeyFileHandle {
  readonly stat: () => Promise<{ readonly size: number }>
  readonly readFile: (encoding: "utf8") => Promise<string>
  readonly close: () => Promise<void>
}

/**
 * The keys of the key file at `path`, opened with `open` and read whole when no larger than
 * `maxApiKeyFileBytes`; a file that cannot be read, is larger, or holds a refused key gives a refusal naming
 * `--api-key-file` and the path.
 *
 * @since 0.1.0
 * @category parsing
 */
export const readKeyFile = async (
  path: string,
  open: (path: string) => Promise<KeyFileHandle>
): Promise<ApiKeyList> => {
  let read: { readonly tooLarge: number } | { readonly text: string }
  try {
    const handle = await open(path)
    try {
      const { size } = await handle.stat()
      read = size > maxApiKeyFileBytes ? { tooLarge: size } : { text: await handle.readFile("utf8") }
    } finally {
      await handle.close()
    }
  } catch (cause) {
    return invalid(`Cannot read --api-key-file ${path}: ${errorCode(cause) ?? String(cause)}`)
  }
  return "text" in read
    ? withPlace(keysOfFile(read.text), `--api-key-file ${path}`)
    : invalid(`--api-key-file ${path} is ${read.tooLarge} bytes: the most read is ${maxApiKeyFileBytes}`)
}

/**
 * Every accepted key of the given sources, each once; `undefined` (any bearer token) when there is none.
 *
 * @since 0.1.0
 * @category parsing
 */
export const acceptedKeys = (...sources: ReadonlyArray<ReadonlyArray<string>>): ReadonlyArray<string> | undefined => {
  const keys = [...new Set(sources.flat())]
  return keys.length > 0 ? keys : undefined
}

/**
 * Where the keys `serve` accepts come from, each counted: `--api-key` flags, the environment variable, and the
 * key file.
 *
 * @since 0.2.0
 * @category models
 */
export interface KeySources {
  readonly flags: number
  readonly variable: number
  readonly file: number
}

/**
 * The value the start-up lines give STUDIO_API_KEY. No key `serve` accepts is ever printed, wherever it came
 * from (a key given with `--api-key` too: the command's output is often kept in logs, which the process list
 * is not, and whoever typed it has it): a shell word that names where to take one, quoted so that a line
 * pasted as it is sets a key that is refused (401) rather than running anything. With no accepted keys, any
 * bearer token is accepted: any word will do.
 *
 * @since 0.2.0
 * @category formatting
 */
export const keyValue = (sources: KeySources): string =>
  sources.flags > 0
    ? "'<a-key-given-with--api-key>'"
    : sources.variable > 0
    ? `'<a-key-of-${apiKeysVariable}>'`
    : sources.file > 0
    ? "'<a-key-of-the--api-key-file>'"
    : "any-key"

/**
 * The lines printed once the service listens at `url`: the address, the keys accepted (how many, never the
 * keys), and the lines that point the command and the SDK at it (both read STUDIO_BASE_URL and
 * STUDIO_API_KEY), with a first command to try. `apiKeys` are the keys accepted (`undefined`: any).
 *
 * @since 0.1.0
 * @category formatting
 */
export const listeningLines = (
  url: string,
  apiKeys: ReadonlyArray<string> | undefined,
  sources: KeySources
): ReadonlyArray<string> => [
  `Studio reference service listening on ${url}`,
  `Base URL for clients: ${url} (the ai21 SDK: ${url}/studio/v1)`,
  apiKeys === undefined ? "Any bearer token is accepted." : `Accepted keys: ${apiKeys.length}`,
  "Point the command and the SDK (StudioClient.layerConfig) at it, in another shell:",
  `  export STUDIO_BASE_URL=${url}`,
  `  export STUDIO_API_KEY=${keyValue(sources)}`,
  "  studio-effect chat \"Hello\""
]

/**
 * The one line that says why the service could not listen at its host and port, from the listening error's
 * cause.
 *
 * @since 0.1.0
 * @category formatting
 */
export const cannotStartMessage = (
  listen: { readonly host?: string | undefined; readonly port?: number | undefined },
  cause: unknown
): string => {
  const { host, port } = listen
  const where = `${host}:${port}`
  switch (errorCode(cause)) {
    case "EADDRINUSE":
      return `Cannot serve on ${where}: the port is in use. Stop what uses it, or choose another with --port ` +
        "(--port 0 picks a free one)"
    case "EADDRNOTAVAIL":
      return `Cannot serve on ${where}: ${host} is not an address of this machine. Use --host 127.0.0.1, ` +
        "0.0.0.0, or one of its addresses"
    case "EACCES":
      return `Cannot serve on ${where}: permission denied (ports below 1024 need privileges). Choose a port ` +
        "above 1023 with --port"
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `Cannot serve on ${where}: the host ${host} is not known. Check --host`
    default:
      return `Cannot serve on ${where}: ${String(cause)}`
  }
}
