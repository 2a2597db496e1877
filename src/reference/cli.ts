/**
 * The `studio-effect` command: `studio-effect serve --port 8080` serves the reference service over HTTP
 * until interrupted (Ctrl-C).
 *
 * @since 0.1.0
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Console from "effect/Console"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { listen, type ListenOptions } from "./index.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const usage = `Usage: studio-effect serve [options]

Serves the Studio reference service over HTTP.

Options:
  --port <n>             port to listen on (default 8080; 0 picks a free port)
  --host <address>       interface to bind (default 127.0.0.1)
  --api-key <key>        accept only this key (repeatable; default: any bearer token)
  --seed <n>             seed of the built-in model (default 0)
  --run-step-ms <n>      duration of one run step in milliseconds (default 200)
  --stream-delay-ms <n>  pause between streamed events in milliseconds (default 0)
  --rate-limit <n>[/<s>] at most n requests per key in each window of s seconds (default 60)
  --max-body-bytes <n>   the largest request body accepted; larger ones get 413 (default 1048576)
  --help                 show this help
`

/**
 * The options of `serve`, parsed from its arguments, or the reason they cannot be.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseServeArguments = (args: ReadonlyArray<string>): ListenOptions | string => {
  const apiKeys: Array<string> = []
  let options: { -readonly [K in keyof ListenOptions]: ListenOptions[K] } = { port: 8080 }
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!
    const [name, inline] = flag.includes("=")
      ? [flag.slice(0, flag.indexOf("=")), flag.slice(flag.indexOf("=") + 1)]
      : [flag, undefined]
    const value = (): string | undefined => inline ?? args[++i]
    const integer = (): number | undefined => {
      const text = value()
      return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined
    }
    switch (name) {
      case "--port": {
        const port = integer()
        if (port === undefined || port > 65535) return "--port needs a number from 0 to 65535"
        options = { ...options, port }
        break
      }
      case "--host": {
        const host = value()
        if (host === undefined) return "--host needs an address"
        options = { ...options, host }
        break
      }
      case "--api-key": {
        const key = value()
        if (key === undefined || key === "") return "--api-key needs a key"
        apiKeys.push(key)
        break
      }
      case "--seed": {
        const seed = integer()
        if (seed === undefined) return "--seed needs a whole number"
        options = { ...options, seed }
        break
      }
      case "--run-step-ms": {
        const ms = integer()
        if (ms === undefined) return "--run-step-ms needs a whole number of milliseconds"
        options = { ...options, runStepDuration: Duration.millis(ms) }
        break
      }
      case "--stream-delay-ms": {
        const ms = integer()
        if (ms === undefined) return "--stream-delay-ms needs a whole number of milliseconds"
        options = { ...options, streamEventDelay: Duration.millis(ms) }
        break
      }
      case "--max-body-bytes": {
        const bytes = integer()
        if (bytes === undefined || bytes === 0) return "--max-body-bytes needs a positive whole number of bytes"
        options = { ...options, maxBodyBytes: bytes }
        break
      }
      case "--rate-limit": {
        const match = /^(\d+)(?:\/(\d+))?$/.exec(value() ?? "")
        if (match === null) return "--rate-limit needs <requests> or <requests>/<seconds>"
        options = {
          ...options,
          rateLimit: { limit: Number(match[1]), window: Duration.seconds(Number(match[2] ?? 60)) }
        }
        break
      }
      default:
        return `unknown option ${flag}`
    }
  }
  return apiKeys.length === 0 ? options : { ...options, apiKeys }
}

/**
 * Runs the command with its arguments (without `node` and the script).
 *
 * @since 0.1.0
 * @category running
 */
export const run = (args: ReadonlyArray<string>): Effect.Effect<void, unknown> => {
  const [command, ...rest] = args
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    return Console.log(usage)
  }
  if (command !== "serve") {
    return Effect.zipRight(Console.error(`unknown command ${command}\n\n${usage}`), Effect.fail(2))
  }
  if (rest.includes("--help") || rest.includes("-h")) return Console.log(usage)
  const options = parseServeArguments(rest)
  if (typeof options === "string") return Effect.zipRight(Console.error(`${options}\n\n${usage}`), Effect.fail(2))
  return Effect.scoped(Effect.gen(function*() {
    const server = yield* listen(options)
    yield* Console.log(`Studio reference service listening on ${server.url}`)
    yield* Console.log(`Base URL for clients: ${server.url} (the ai21 SDK: ${server.url}/studio/v1)`)
    yield* Console.log(
      options.apiKeys === undefined ? "Any bearer token is accepted." : `Accepted keys: ${options.apiKeys.length}`
    )
    return yield* Effect.never
  }))
}

/**
 * Runs the command as the program's main effect, exiting on Ctrl-C.
 *
 * @since 0.1.0
 * @category running
 */
export const main = (args: ReadonlyArray<string>): void =>
  NodeRuntime.runMain(run(args), { disableErrorReporting: true })
