/**
 * The process's standard streams as `effect/Stdio`: the arguments, stdin, and stdout and stderr written
 * as they are (no line break added), each write waiting until the stream has taken it; and what the command
 * writes on them.
 *
 * Text from the service (a model's answer, a run's result, an error's detail) may hold control characters
 * that a terminal obeys (writing the clipboard, the window's title, clearing the screen): on a terminal it is
 * shown with them made visible (`visibleControls`). Into a pipe or a file, stdout is data and gets the text as
 * the service sent it; stderr is for people and always gets it made visible.
 *
 * A reader that closes stdout (`studio-effect chat ... | head -c 20`) ends the command quietly, with exit
 * code 0, as `head` expects (`isStdoutClosed`).
 *
 * Why not `NodeStdio`: it lives in `@effect/platform-node`, an optional peer dependency, and
 * `studio-effect chat`, `run` and `assistants` must work after the README's install line alone, which
 * does not install it. This one is built on Node's own streams, as `NodeStdio` is.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PlatformError from "effect/PlatformError"
import * as Sink from "effect/Sink"
import * as Stdio from "effect/Stdio"
import * as Stream from "effect/Stream"
import { visibleControls } from "studio-effect-core/text/visibleControls"

const failure = (method: string, cause: unknown): PlatformError.PlatformError =>
  PlatformError.systemError({ _tag: "Unknown", module: "Stdio", method, cause })

/** What a write to a pipe whose reader has gone fails with: its first write, then every later one. */
const closed = (method: string, cause?: unknown): PlatformError.PlatformError =>
  PlatformError.systemError({
    _tag: "BadResource",
    module: "Stdio",
    method,
    description: "closed by its reader",
    cause
  })

const closedByReader = (error: NodeJS.ErrnoException): boolean =>
  error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED"

const writeTo = (
  stream: NodeJS.WriteStream,
  method: string,
  chunk: string | Uint8Array
): Effect.Effect<void, PlatformError.PlatformError> =>
  Effect.callback((resume) => {
    if (stream.destroyed) return resume(Effect.fail(closed(method)))
    stream.write(chunk, (error) =>
      resume(
        error === null || error === undefined
          ? Effect.void
          : Effect.fail(closedByReader(error) ? closed(method, error) : failure(method, error))
      ))
  })

const endOf = (stream: NodeJS.WriteStream): Effect.Effect<void> =>
  Effect.callback((resume) => {
    stream.end(() => resume(Effect.void))
  })

const sinkTo =
  (stream: NodeJS.WriteStream, method: string) => (options?: { readonly endOnDone?: boolean | undefined }) => {
    const sink = Sink.forEach((chunk: string | Uint8Array) => writeTo(stream, method, chunk))
    return options?.endOnDone === true ? Sink.ensuring(sink, endOf(stream)) : sink
  }

/**
 * The standard streams of this process.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Stdio.Stdio> = Layer.sync(Stdio.Stdio, () =>
  Stdio.make({
    args: Effect.sync(() => process.argv.slice(2)),
    stdinIsTerminal: Effect.sync(() => process.stdin.isTTY === true),
    stdoutIsTerminal: Effect.sync(() => process.stdout.isTTY === true),
    stderrIsTerminal: Effect.sync(() => process.stderr.isTTY === true),
    stdout: sinkTo(process.stdout, "stdout"),
    stderr: sinkTo(process.stderr, "stderr"),
    stdin: Stream.fromAsyncIterable(process.stdin as AsyncIterable<Uint8Array>, (cause) => failure("stdin", cause))
  }))

/**
 * Whether a failure is stdout closed by its reader: the command then stops, quietly and successfully.
 *
 * @since 0.1.0
 * @category errors
 */
export const isStdoutClosed = (failure: unknown): boolean =>
  PlatformError.isPlatformError(failure) && failure.reason._tag === "BadResource" &&
  failure.reason.module === "Stdio" && failure.reason.method === "stdout"

/**
 * Writes text to stdout as it is.
 *
 * @since 0.1.0
 * @category output
 */
export const write = (text: string): Effect.Effect<void, PlatformError.PlatformError, Stdio.Stdio> =>
  Stdio.Stdio.use((stdio) => Stream.run(Stream.succeed(text), stdio.stdout()))

/**
 * Writes a line to stdout.
 *
 * @since 0.1.0
 * @category output
 */
export const printLine = (text: string): Effect.Effect<void, PlatformError.PlatformError, Stdio.Stdio> =>
  write(`${text}\n`)

/**
 * How text from the service is written to stdout: with its control characters made visible on a terminal,
 * as it is into a pipe or a file.
 *
 * @since 0.1.0
 * @category output
 */
export const shownOnStdout: Effect.Effect<(text: string) => string, never, Stdio.Stdio> = Stdio.Stdio.use((stdio) =>
  Effect.map(stdio.stdoutIsTerminal, (terminal) => terminal ? visibleControls : (text: string) => text)
)

/**
 * Prints text from the service as a line on stdout, shown as `shownOnStdout` says.
 *
 * @since 0.1.0
 * @category output
 */
export const printShown = (text: string): Effect.Effect<void, PlatformError.PlatformError, Stdio.Stdio> =>
  Effect.flatMap(shownOnStdout, (shown) => printLine(shown(text)))

/**
 * Prints a value from the service as JSON on stdout (`JSON.stringify` escapes C0 controls, not DEL or the C1
 * ones: on a terminal, those are made visible too).
 *
 * @since 0.1.0
 * @category output
 */
export const printJson = (value: unknown): Effect.Effect<void, PlatformError.PlatformError, Stdio.Stdio> =>
  printShown(JSON.stringify(value, null, 2))

/**
 * Writes text to stderr as it is.
 *
 * @since 0.1.0
 * @category output
 */
export const writeError = (text: string): Effect.Effect<void, PlatformError.PlatformError, Stdio.Stdio> =>
  Stdio.Stdio.use((stdio) => Stream.run(Stream.succeed(text), stdio.stderr()))

/**
 * Writes a line to stderr, its control characters made visible (a failure to write there has nowhere to be
 * told).
 *
 * @since 0.1.0
 * @category output
 */
export const printError = (text: string): Effect.Effect<void, never, Stdio.Stdio> =>
  Effect.ignore(writeError(`${visibleControls(text)}\n`))

/**
 * The width of stderr when it is a terminal that says it, read now (a terminal may be resized); `undefined`
 * otherwise.
 *
 * @since 0.2.0
 * @category output
 */
export const stderrColumns: Effect.Effect<number | undefined> = Effect.sync(() =>
  process.stderr.isTTY === true && (process.stderr.columns ?? 0) > 0 ? process.stderr.columns : undefined
)
