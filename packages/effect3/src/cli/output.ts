/**
 * Writing to the terminal without a line break: streamed text on stdout, the progress line on stderr.
 */
import * as Effect from "effect/Effect"

const writeTo = (stream: NodeJS.WriteStream, text: string): Effect.Effect<void> =>
  Effect.async<void>((resume) => {
    stream.write(text, () => resume(Effect.void))
  })

/**
 * Writes text to stdout as it is, waiting until the stream has taken it.
 *
 * @since 0.1.0
 * @category output
 */
export const write = (text: string): Effect.Effect<void> => writeTo(process.stdout, text)

/**
 * Writes text to stderr as it is.
 *
 * @since 0.1.0
 * @category output
 */
export const writeError = (text: string): Effect.Effect<void> => writeTo(process.stderr, text)

/**
 * Whether stderr is a terminal, where a progress line can be redrawn in place.
 *
 * @since 0.1.0
 * @category output
 */
export const stderrIsTerminal: Effect.Effect<boolean> = Effect.sync(() => process.stderr.isTTY === true)
