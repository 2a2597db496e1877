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
  acceptedKeys,
  cannotStartMessage,
  defaultHost,
  defaultPort,
  keysOfVariable,
  type KeySources,
  listeningLines,
  parseRateLimit,
  portRefusal,
  readKeyFile,
  serveDescriptions,
  serveExamples,
  type WholeNumberOption,
  wholeNumberOptions,
  wholeNumberRefusal
} from "studio-effect-core/cli/serve"
import { type ApiKeyList, apiKeysVariable } from "studio-effect-core/reference/apiKeys"
import type { ListenOptions } from "../reference/index.js"
import { CliFailure } from "./failure.js"
import * as Modules from "./modules.js"

const invalid = (message: string) => Effect.fail(new CliError.ValidationError({ message }))

const orInvalid = <A>(refusal: string | undefined, value: A) =>
  refusal === undefined ? Effect.succeed(value) : invalid(refusal)

const wholeNumber = (option: WholeNumberOption) =>
  Flag.Int(option.name).pipe(
    Flag.optional,
    Flag.withDescription(option.description),
    Flag.mapEffect((value) =>
      orInvalid(Option.isSome(value) ? wholeNumberRefusal(option, value.value) : undefined, value)
    )
  )

const port = Flag.Int("port").pipe(
  Flag.withAlias("p"),
  Flag.withDefault(defaultPort),
  Flag.withDescription(serveDescriptions.port),
  Flag.mapEffect((port) => orInvalid(portRefusal(port), port))
)
const host = Flag.String("host").pipe(
  Flag.withDefault(defaultHost),
  Flag.withDescription(serveDescriptions.host)
)
const apiKeys = Flag.String("api-key").pipe(
  Flag.atLeast(0),
  Flag.withDescription(serveDescriptions.apiKey)
)
const apiKeyFile = Flag.String("api-key-file").pipe(
  Flag.optional,
  Flag.withDescription(serveDescriptions.apiKeyFile)
)
const rateLimit = Flag.String("rate-limit").pipe(
  Flag.optional,
  Flag.withDescription(serveDescriptions.rateLimit),
  Flag.mapEffect(Option.match({
    onNone: () => Effect.succeed(Option.none()),
    onSome: (text) => {
      const parsed = parseRateLimit(text)
      return parsed._tag === "Invalid"
        ? invalid(parsed.message)
        : Effect.succeed(Option.some({ limit: parsed.limit, window: Duration.seconds(parsed.seconds) }))
    }
  }))
)

const log = Flag.Boolean("log").pipe(
  Flag.withDefault(false),
  Flag.withDescription(serveDescriptions.log)
)

const options = {
  port,
  host,
  log,
  apiKeys,
  apiKeyFile,
  seed: wholeNumber(wholeNumberOptions.seed),
  runStepMs: wholeNumber(wholeNumberOptions.runStepMs),
  streamDelayMs: wholeNumber(wholeNumberOptions.streamDelayMs),
  rateLimit,
  maxBodyBytes: wholeNumber(wholeNumberOptions.maxBodyBytes),
  maxPendingBodyBytes: wholeNumber(wholeNumberOptions.maxPendingBodyBytes),
  maxConnections: wholeNumber(wholeNumberOptions.maxConnections),
  headersTimeoutMs: wholeNumber(wholeNumberOptions.headersTimeoutMs),
  requestTimeoutMs: wholeNumber(wholeNumberOptions.requestTimeoutMs),
  maxTenants: wholeNumber(wholeNumberOptions.maxTenants)
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

const keysOrFail = (list: ApiKeyList): Effect.Effect<ReadonlyArray<string>, CliFailure> =>
  list._tag === "Keys" ? Effect.succeed(list.keys) : Effect.fail(new CliFailure({ message: list.message }))

/**
 * Every accepted key: those of --api-key, of the environment variable, and of --api-key-file; none (any
 * bearer token) when no source gives one. With how many each source gave, for the start-up lines.
 */
const keysOf = (
  flags: ReadonlyArray<string>,
  file: Option.Option<string>
): Effect.Effect<{ readonly keys: ReadonlyArray<string> | undefined; readonly sources: KeySources }, CliFailure> =>
  Effect.gen(function*() {
    const variable = yield* Config.option(Config.String(apiKeysVariable)).pipe(
      Effect.mapError(() => new CliFailure({ message: `Cannot read ${apiKeysVariable}` }))
    )
    const fromVariable = Option.isSome(variable) ? yield* keysOrFail(keysOfVariable(variable.value)) : []
    const fromFile = Option.isSome(file)
      ? yield* Effect.flatMap(Effect.promise(() => readKeyFile(file.value, (path) => fs.open(path, "r"))), keysOrFail)
      : []
    return {
      keys: acceptedKeys(flags, fromVariable, fromFile),
      sources: { flags: flags.length, variable: fromVariable.length, file: fromFile.length }
    }
  })

/**
 * The `serve` command.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("serve", options, (given) =>
  Effect.scoped(Effect.gen(function*() {
    const { keys, sources } = yield* keysOf(given.apiKeys, given.apiKeyFile)
    const listen: ListenOptions = { ...listenOptions(given), apiKeys: keys }
    const Reference = yield* Modules.Reference
    const server = yield* Reference.listen(listen).pipe(
      Effect.catchTag("ServeError", (error) =>
        Effect.fail(new CliFailure({ message: cannotStartMessage(listen, error.cause) })))
    )
    for (const line of listeningLines(server.url, listen.apiKeys, sources)) {
      yield* Console.log(line)
    }
    return yield* Effect.never
  }))).pipe(Command.withDescription(serveDescriptions.command), Command.withExamples(serveExamples))
