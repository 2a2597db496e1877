/**
 * `studio-effect serve`: the reference service over HTTP until interrupted (Ctrl-C). When it cannot
 * start, one line on stderr says why.
 */
import * as CliError from "effect/cli/CliError"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Console from "effect/Console"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ListenOptions } from "../reference/index.js"
import * as Reference from "../reference/index.js"
import { CliFailure } from "./failure.js"

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
  Flag.withDescription("Accept only this key; repeat for several (default: any bearer token)")
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

const options = {
  port,
  host,
  apiKeys,
  seed: wholeNumber("seed", "The seed of the built-in model (default 0)", 0),
  runStepMs: wholeNumber("run-step-ms", "The duration of one run step, in milliseconds (default 200)", 0),
  streamDelayMs: wholeNumber("stream-delay-ms", "The pause between streamed events, in milliseconds (default 0)", 0),
  rateLimit,
  maxBodyBytes: wholeNumber(
    "max-body-bytes",
    "The largest request body accepted; a larger one gets 413 (default 1048576)",
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
    apiKeys: given.apiKeys.length > 0 ? given.apiKeys : undefined,
    seed: some(given.seed, (seed) => seed),
    runStepDuration: some(given.runStepMs, Duration.millis),
    streamEventDelay: some(given.streamDelayMs, Duration.millis),
    rateLimit: some(given.rateLimit, (limit) => limit),
    maxBodyBytes: some(given.maxBodyBytes, (bytes) => bytes)
  }
  return Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined)) as ListenOptions
}

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
export const command = Command.make("serve", options, (given) => {
  const listen = listenOptions(given)
  return Effect.scoped(Effect.gen(function*() {
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
  }))
}).pipe(Command.withDescription("Serve the reference service over HTTP until interrupted (Ctrl-C)"))
