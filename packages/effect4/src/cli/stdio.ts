/**
 * The process's standard streams as `effect/Stdio`: the arguments, stdin, and stdout and stderr written
 * as they are (no line break added), each write waiting until the stream has taken it.
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

const failure = (method: string, cause: unknown): PlatformError.PlatformError =>
  PlatformError.systemError({ _tag: "Unknown", module: "Stdio", method, cause })

const writeTo = (
  stream: NodeJS.WriteStream,
  method: string,
  chunk: string | Uint8Array
): Effect.Effect<void, PlatformError.PlatformError> =>
  Effect.callback((resume) => {
    stream.write(chunk, (error) =>
      resume(error === null || error === undefined ? Effect.void : Effect.fail(failure(method, error))))
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
 * Writes text to stderr as it is.
 *
 * @since 0.1.0
 * @category output
 */
export const writeError = (text: string): Effect.Effect<void, PlatformError.PlatformError, Stdio.Stdio> =>
  Stdio.Stdio.use((stdio) => Stream.run(Stream.succeed(text), stdio.stderr()))
