/**
 * What the command writes: its answers on stdout, its progress and failures on stderr.
 *
 * Text from the service (a model's answer, a run's result, an error's detail) may hold control characters
 * that a terminal obeys (writing the clipboard, the window's title, clearing the screen): on a terminal it is
 * shown with them made visible (`visibleControls`). Into a pipe or a file, stdout is data and gets the text as
 * the service sent it; stderr is for people and always gets it made visible.
 *
 * A reader that closes stdout (`studio-effect chat ... | head -c 20`) ends the command quietly, with exit
 * code 0, as `head` expects.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { visibleControls } from "studio-effect-core/text/visibleControls"
import { CliFailure } from "./failure.js"

/**
 * Stdout was closed by its reader: the command stops, quietly and successfully.
 *
 * @since 0.1.0
 * @category errors
 */
export class StdoutClosed extends Data.TaggedError("StdoutClosed")<{}> {}

/** The errors a write to a pipe whose reader has gone gives: the first, then every later one. */
const closedByReader = (error: NodeJS.ErrnoException): boolean =>
  error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED"

/**
 * Writes text (or bytes) to stdout as it is, waiting until the stream has taken it.
 *
 * @since 0.1.0
 * @category output
 */
export const write = (text: string | Uint8Array): Effect.Effect<void, StdoutClosed | CliFailure> =>
  Effect.async((resume) => {
    if (process.stdout.destroyed) return resume(Effect.fail(new StdoutClosed()))
    process.stdout.write(text, (error) =>
      resume(
        error === null || error === undefined
          ? Effect.void
          : closedByReader(error)
          ? Effect.fail(new StdoutClosed())
          : Effect.fail(new CliFailure({ message: `Cannot write the answer to stdout: ${error.message}` }))
      ))
  })

/**
 * Writes a line to stdout.
 *
 * @since 0.1.0
 * @category output
 */
export const printLine = (text: string): Effect.Effect<void, StdoutClosed | CliFailure> => write(`${text}\n`)

/**
 * How text from the service is written to stdout: with its control characters made visible on a terminal,
 * as it is into a pipe or a file.
 *
 * @since 0.1.0
 * @category output
 */
export const shownOnStdout: Effect.Effect<(text: string) => string> = Effect.sync(() =>
  process.stdout.isTTY === true ? visibleControls : (text: string) => text
)

/**
 * Prints text from the service as a line on stdout, shown as `shownOnStdout` says.
 *
 * @since 0.1.0
 * @category output
 */
export const printShown = (text: string): Effect.Effect<void, StdoutClosed | CliFailure> =>
  Effect.flatMap(shownOnStdout, (shown) => printLine(shown(text)))

/**
 * Prints a value from the service as JSON on stdout (`JSON.stringify` escapes C0 controls, not DEL or the C1
 * ones: on a terminal, those are made visible too).
 *
 * @since 0.1.0
 * @category output
 */
export const printJson = (value: unknown): Effect.Effect<void, StdoutClosed | CliFailure> =>
  printShown(JSON.stringify(value, null, 2))

/**
 * Writes text to stderr as it is (a failure to write there has nowhere to be told).
 *
 * @since 0.1.0
 * @category output
 */
export const writeError = (text: string): Effect.Effect<void> =>
  Effect.async<void>((resume) => {
    if (process.stderr.destroyed) return resume(Effect.void)
    process.stderr.write(text, () => resume(Effect.void))
  })

/**
 * Writes a line to stderr, its control characters made visible.
 *
 * @since 0.1.0
 * @category output
 */
export const printError = (text: string): Effect.Effect<void> => writeError(`${visibleControls(text)}\n`)

/**
 * Whether stderr is a terminal, where a progress line can be redrawn in place.
 *
 * @since 0.1.0
 * @category output
 */
export const stderrIsTerminal: Effect.Effect<boolean> = Effect.sync(() => process.stderr.isTTY === true)

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
