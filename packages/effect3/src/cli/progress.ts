/**
 * Following a run to its end in the terminal: a live progress line (status, elapsed time, polls) while it
 * is polled, then its result and a table of its requirement scores.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { exitCodes } from "studio-effect-core/cli/exitCodes"
import { progressLine, redrawn, runReport, stoppedMessage } from "studio-effect-core/cli/progress"
import * as Maestro from "../Maestro.js"
import type { MaestroRun } from "../MaestroSchema.js"
import type { StudioClient } from "../StudioClient.js"
import type { StudioError } from "../StudioError.js"
import { CliFailure } from "./failure.js"
import {
  printError,
  printLine,
  shownOnStdout,
  stderrColumns,
  stderrIsTerminal,
  StdoutClosed,
  writeError
} from "./output.js"
import { ctrlC } from "./runtime.js"

/** The failure Ctrl-C while a run is followed ends the command with. */
const stopped = (id: string, embedded: boolean): CliFailure =>
  new CliFailure({ exitCode: exitCodes.stopped, message: stoppedMessage(id, embedded) })

/**
 * Polls a run until it is terminal, as `Maestro.poll` does, showing its progress on stderr: on a
 * terminal one line redrawn in place every second and at each snapshot, fitted to the terminal's width read
 * at each redraw, otherwise one line per snapshot.
 * Ctrl-C stops following it: the command fails with exit code 130 and says how to pick the run up.
 *
 * @since 0.1.0
 * @category polling
 */
export const follow = (
  started: MaestroRun,
  options: { readonly embedded: boolean }
): Effect.Effect<MaestroRun, StudioError | CliFailure, StudioClient> =>
  Effect.gen(function*() {
    const redraw = yield* stderrIsTerminal
    const start = yield* Clock.currentTimeMillis
    const state = yield* Ref.make({ status: started.status, polls: 0 })
    const line = Effect.gen(function*() {
      const { polls, status } = yield* Ref.get(state)
      const now = yield* Clock.currentTimeMillis
      return progressLine(started.id, status, now - start, polls, redraw ? yield* stderrColumns : undefined)
    })
    const draw = Effect.flatMap(
      line,
      (text) => redraw ? writeError(redrawn(text)) : printError(text)
    )
    yield* draw
    const ticker = redraw
      ? yield* Effect.fork(Effect.delay(Effect.repeat(draw, Schedule.spaced("1 second")), "1 second"))
      : undefined
    const last = yield* Maestro.watch(started).pipe(
      Stream.drop(1),
      Stream.tap((snapshot) =>
        Effect.zipRight(Ref.update(state, (s) => ({ status: snapshot.status, polls: s.polls + 1 })), draw)
      ),
      Stream.runLast,
      Effect.raceFirst(Effect.zipRight(ctrlC, Effect.fail(stopped(started.id, options.embedded)))),
      Effect.ensuring(Effect.zipRight(
        ticker === undefined ? Effect.void : Fiber.interrupt(ticker),
        redraw ? writeError("\n") : Effect.void
      ))
    )
    return Option.getOrElse(last, () => started)
  })

/**
 * Prints a terminal run: its result, then a table of its requirement scores and the overall score.
 *
 * @since 0.1.0
 * @category output
 */
export const printRun = (run: MaestroRun): Effect.Effect<void, StdoutClosed | CliFailure> =>
  Effect.gen(function*() {
    const shown = yield* shownOnStdout
    for (const line of runReport(run, shown)) yield* printLine(line)
  })
