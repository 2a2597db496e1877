/**
 * `studio-effect serve`: the reference service over HTTP until interrupted (Ctrl-C). When it cannot
 * start, one line on stderr says why.
 */
import * as CliError from "effect/cli/CliError"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as fs from "node:fs/promises"
import {
  type ApiKeyList,
  apiKeysVariable,
  keysOfFile,
  keysOfList,
  maxApiKeyFileBytes
} from "studio-effect-core/reference/apiKeys"
import type { ListenOptions } from "../reference/index.js"
import { CliFailure } from "./failure.js"
import * as Modules from "./modules.js"

const invalid = (message: string) => Effect.fail(new CliError.ValidationError({ message }))

const wholeNumber = (name: string, description: string, minimum: number) =>
  Flag.Int(name).pipe(
    Flag.optional,
    Flag.withDescription(description),
    Flag.mapEffect((value) =>
      Option.isSome(value) && value.value < minimum
        ? invalid(`--${name} needs a whole number of at least ${minimum}`)
        : Effect.succeed(value)
    )
  )

const port = Flag.Int("port").pipe(
  Flag.withDefault(8080),
  Flag.withDescription("The port to listen on (0 picks a free one)"),
  Flag.mapEffect((port) =>
    port >= 0 && port <= 65535 ? Effect.succeed(port) : invalid("--port needs a number from 0 to 65535")
  )
)
const host = Flag.String("host").pipe(
  Flag.withDefault("127.0.0.1"),
  Flag.withDescription("The interface to bind")
)
const apiKeys = Flag.String("api-key").pipe(
  Flag.atLeast(0),
  Flag.withDescription(
    `Accept this key; repeat for several. Prefer ${apiKeysVariable} or --api-key-file: ` +
      "a key on the command line shows in the process list"
  )
)
const apiKeyFile = Flag.String("api-key-file").pipe(
  Flag.optional,
  Flag.withDescription("Accept the keys of this file, one per line (blank lines and # comments skipped)")
)
const rateLimit = Flag.String("rate-limit").pipe(
  Flag.optional,
  Flag.withDescription("At most n requests per key in each window of s seconds, as n or n/s (s defaults to 60)"),
  Flag.mapEffect(Option.match({
    onNone: () => Effect.succeed(Option.none()),
    onSome: (text) => {
      const match = /^(\d+)(?:\/(\d+))?$/.exec(text)
      return match === null || Number(match[2] ?? 60) === 0
        ? invalid(`--rate-limit needs <requests> or <requests>/<seconds>, as in 10/2; got "${text}"`)
        : Effect.succeed(Option.some({ limit: Number(match[1]), window: Duration.seconds(Number(match[2] ?? 60)) }))
    }
  }))
)

const log = Flag.Boolean("log").pipe(
  Flag.withDefault(false),
  Flag.withDescription("Log one line per request answered: its method, address and status")
)

const options = {
  port,
  host,
  log,
  apiKeys,
  apiKeyFile,
  seed: wholeNumber(
    "seed",
    "The seed of the built-in model (default 0) and of identifiers (random when not given)",
    0
  ),
  runStepMs: wholeNumber("run-step-ms", "The duration of one run step, in milliseconds (default 200)", 0),
  streamDelayMs: wholeNumber("stream-delay-ms", "The pause between streamed events, in milliseconds (default 0)", 0),
  rateLimit,
  maxBodyBytes: wholeNumber(
    "max-body-bytes",
    "The largest request body accepted; a larger one gets 413 (default 1048576)",
    1
  ),
  maxPendingBodyBytes: wholeNumber(
    "max-pending-body-bytes",
    "The most bytes held by request bodies still arriving, all together; past it, 503 (default 33554432)",
    1
  ),
  maxConnections: wholeNumber(
    "max-connections",
    "The most open connections; past it, a new one is closed at once (default 1024)",
    1
  ),
  headersTimeoutMs: wholeNumber(
    "headers-timeout-ms",
    "How long a client may take to send a request's headers; past it, 408 (default 10000)",
    1
  ),
  requestTimeoutMs: wholeNumber(
    "request-timeout-ms",
    "How long a client may take to send a whole request; past it, 408 (default 60000)",
    1
  ),
  maxTenants: wholeNumber(
    "max-tenants",
    "The most accepted keys whose assistants and runs are kept at once (default 100)",
    1
  )
}

/**
 * The options of `listen` that the command's options give.
 *
 * @since 0.1.0
 * @category parsing
 */
export const listenOptions = (given: Command.Command.Config.Infer<typeof options>): ListenOptions => {
  const some = <A, B>(option: Option.Option<A>, f: (a: A) => B): B | undefined =>
    Option.getOrUndefined(Option.map(option, f))
  const chosen: ListenOptions = {
    port: given.port,
    host: given.host,
    seed: some(given.seed, (seed) => seed),
    runStepDuration: some(given.runStepMs, Duration.millis),
    streamEventDelay: some(given.streamDelayMs, Duration.millis),
    rateLimit: some(given.rateLimit, (limit) => limit),
    maxBodyBytes: some(given.maxBodyBytes, (bytes) => bytes),
    maxPendingBodyBytes: some(given.maxPendingBodyBytes, (bytes) => bytes),
    maxConnections: some(given.maxConnections, (count) => count),
    headersTimeout: some(given.headersTimeoutMs, Duration.millis),
    requestTimeout: some(given.requestTimeoutMs, Duration.millis),
    maxTenants: some(given.maxTenants, (count) => count),
    log: given.log ? true : undefined
  }
  return Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined)) as ListenOptions
}

const keysOrFail = (list: ApiKeyList, where: string): Effect.Effect<ReadonlyArray<string>, CliFailure> =>
  list._tag === "Keys"
    ? Effect.succeed(list.keys)
    : Effect.fail(new CliFailure({ message: `${where}: ${list.message}` }))

/** The keys of the key file at `path`, read whole when no larger than `maxApiKeyFileBytes`. */
const keyFile = (path: string): Effect.Effect<ReadonlyArray<string>, CliFailure> =>
  Effect.tryPromise({
    try: async () => {
      const handle = await fs.open(path, "r")
      try {
        const { size } = await handle.stat()
        if (size > maxApiKeyFileBytes) return { tooLarge: size }
        return { text: await handle.readFile("utf8") }
      } finally {
        await handle.close()
      }
    },
    catch: (cause) =>
      new CliFailure({
        message: `Cannot read --api-key-file ${path}: ${codeOf(cause) ?? String(cause)}`
      })
  }).pipe(
    Effect.flatMap((read) =>
      "text" in read
        ? keysOrFail(keysOfFile(read.text), `--api-key-file ${path}`)
        : Effect.fail(
          new CliFailure({
            message: `--api-key-file ${path} is ${read.tooLarge} bytes: the most read is ${maxApiKeyFileBytes}`
          })
        )
    )
  )

/**
 * Every accepted key: those of --api-key, of the environment variable, and of --api-key-file; none (any
 * bearer token) when no source gives one.
 */
const acceptedKeys = (
  flags: ReadonlyArray<string>,
  file: Option.Option<string>
): Effect.Effect<ReadonlyArray<string> | undefined, CliFailure> =>
  Effect.gen(function*() {
    const variable = yield* Config.option(Config.String(apiKeysVariable)).pipe(
      Effect.mapError(() => new CliFailure({ message: `Cannot read ${apiKeysVariable}` }))
    )
    const fromVariable = Option.isSome(variable)
      ? yield* keysOrFail(keysOfList(variable.value), apiKeysVariable)
      : []
    const fromFile = Option.isSome(file) ? yield* keyFile(file.value) : []
    const keys = [...new Set([...flags, ...fromVariable, ...fromFile])]
    return keys.length > 0 ? keys : undefined
  })

const codeOf = (cause: unknown): unknown =>
  typeof cause === "object" && cause !== null && "code" in cause ? cause.code : undefined

/** The one line that says why the server could not start. */
const cannotStart = (listen: ListenOptions, cause: unknown): CliFailure => {
  const where = `${listen.host}:${listen.port}`
  switch (codeOf(cause)) {
    case "EADDRINUSE":
      return new CliFailure({
        message: `Cannot serve on ${where}: the port is in use. Stop what uses it, or choose another with --port ` +
          "(--port 0 picks a free one)"
      })
    case "EADDRNOTAVAIL":
      return new CliFailure({
        message: `Cannot serve on ${where}: ${listen.host} is not an address of this machine. Use --host 127.0.0.1, ` +
          "0.0.0.0, or one of its addresses"
      })
    case "EACCES":
      return new CliFailure({
        message: `Cannot serve on ${where}: permission denied (ports below 1024 need privileges). Choose a port ` +
          "above 1023 with --port"
      })
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new CliFailure({ message: `Cannot serve on ${where}: the host ${listen.host} is not known. Check --host` })
    default:
      return new CliFailure({ message: `Cannot serve on ${where}: ${String(cause)}` })
  }
}

const isMissingPlatformNode = (defect: unknown): boolean =>
  codeOf(defect) === "ERR_MODULE_NOT_FOUND" && String((defect as Error).message).includes("@effect/platform-node")

/**
 * The `serve` command.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("serve", options, (given) =>
  Effect.scoped(Effect.gen(function*() {
    const listen: ListenOptions = {
      ...listenOptions(given),
      apiKeys: yield* acceptedKeys(given.apiKeys, given.apiKeyFile)
    }
    const Reference = yield* Modules.Reference
    const server = yield* Reference.listen(listen).pipe(
      Effect.catchTag("ServeError", (error) => Effect.fail(cannotStart(listen, error.cause))),
      Effect.catchDefect((defect) =>
        isMissingPlatformNode(defect)
          ? Effect.fail(
            new CliFailure({
              message: "studio-effect serve needs @effect/platform-node, an optional dependency: " +
                "npm install @effect/platform-node@^4.1"
            })
          )
          : Effect.die(defect)
      )
    )
    yield* Console.log(`Studio reference service listening on ${server.url}`)
    yield* Console.log(`Base URL for clients: ${server.url} (the ai21 SDK: ${server.url}/studio/v1)`)
    yield* Console.log(
      listen.apiKeys === undefined ? "Any bearer token is accepted." : `Accepted keys: ${listen.apiKeys.length}`
    )
    return yield* Effect.never
  }))).pipe(Command.withDescription("Serve the reference service over HTTP until interrupted (Ctrl-C)"))
