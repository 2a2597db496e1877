/**
 * Following a run to its end in the terminal: a live progress line (status, elapsed time, polls) while it
 * is polled, then its result and a table of its requirement scores.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import type * as PlatformError from "effect/PlatformError"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import * as Stdio from "effect/Stdio"
import * as Stream from "effect/Stream"
import { visibleControls } from "studio-effect-core/text/visibleControls"
import type { MaestroRun } from "../MaestroSchema.js"
import type { StudioClient } from "../StudioClient.js"
import type { StudioError } from "../StudioError.js"
import { CliFailure } from "./failure.js"
import * as Modules from "./modules.js"
import { ctrlC } from "./runtime.js"
import { printError, printLine, shownOnStdout, writeError } from "./stdio.js"

const seconds = (millis: number): string => `${(millis / 1000).toFixed(1)}s`

/**
 * What Ctrl-C while a run is followed says: the run goes on in the service, and how to pick it up; with the
 * embedded reference service, that it ends with the command.
 */
const stopped = (id: string, embedded: boolean): CliFailure =>
  new CliFailure({
    exitCode: 130,
    message: embedded
      ? `Stopped run ${id}: the embedded reference service (--reference) ends with this command, and the run with it`
      : `Stopped following run ${id}, which goes on in the service: \`studio-effect run watch ${id}\` follows it ` +
        `again, \`studio-effect run get ${id}\` shows it`
  })

/**
 * Polls a run until it is terminal, as `Maestro.poll` does, showing its progress on stderr: on a
 * terminal one line redrawn in place every second and at each snapshot, otherwise one line per snapshot.
 * Ctrl-C stops following it: the command fails with exit code 130 and says how to pick the run up.
 *
 * @since 0.1.0
 * @category polling
 */
export const follow = (
  started: MaestroRun,
  options: { readonly embedded: boolean }
): Effect.Effect<MaestroRun, StudioError | PlatformError.PlatformError | CliFailure, StudioClient | Stdio.Stdio> =>
  Effect.gen(function*() {
    const redraw = yield* Stdio.Stdio.use((stdio) => stdio.stderrIsTerminal)
    const start = yield* Clock.currentTimeMillis
    const state = yield* Ref.make({ status: started.status, polls: 0 })
    const line = Effect.gen(function*() {
      const { polls, status } = yield* Ref.get(state)
      const now = yield* Clock.currentTimeMillis
      return `run ${started.id}: ${status}, ${seconds(now - start)}, ${polls} ${polls === 1 ? "poll" : "polls"}`
    })
    const draw = Effect.flatMap(
      line,
      (text) => redraw ? writeError(`\r\x1b[2K${visibleControls(text)}`) : printError(text)
    )
    yield* draw
    const ticker = redraw
      ? yield* Effect.forkChild(Effect.delay(Effect.repeat(draw, Schedule.spaced("1 second")), "1 second"))
      : undefined
    const Maestro = yield* Modules.Maestro
    const last = yield* Maestro.watch(started).pipe(
      Stream.drop(1),
      Stream.tap((snapshot) =>
        Effect.andThen(Ref.update(state, (s) => ({ status: snapshot.status, polls: s.polls + 1 })), draw)
      ),
      Stream.runLast,
      Effect.raceFirst(Effect.andThen(ctrlC, Effect.fail(stopped(started.id, options.embedded)))),
      Effect.ensuring(Effect.andThen(
        ticker === undefined ? Effect.void : Fiber.interrupt(ticker),
        redraw ? Effect.ignore(writeError("\n")) : Effect.void
      ))
    )
    return Option.getOrElse(last, () => started)
  })

const text = (value: unknown): string =>
  typeof value === "string" ? value : value === null || value === undefined ? "(none)" : JSON.stringify(value, null, 2)

/**
 * Prints a terminal run: its result, then a table of its requirement scores and the overall score.
 *
 * @since 0.1.0
 * @category output
 */
export const printRun = (run: MaestroRun): Effect.Effect<void, PlatformError.PlatformError, Stdio.Stdio> =>
  Effect.gen(function*() {
    const shown = yield* shownOnStdout
    yield* printLine(shown(text(run.result)))
    const result = run.requirements_result
    if (result === undefined || result === null || result.requirements.length === 0) return
    const rows = result.requirements.map((requirement) => [
      shown(requirement.name) + (requirement.is_mandatory === true ? " *" : ""),
      requirement.score.toFixed(2),
      shown(requirement.reason ?? "")
    ])
    const header = ["requirement", "score", "reason"]
    const widths = [0, 1].map((column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)))
    const format = (row: ReadonlyArray<string>) =>
      `${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padStart(widths[1]!)}  ${row[2]!}`.trimEnd()
    yield* printLine("")
    yield* printLine(format(header))
    for (const row of rows) yield* printLine(format(row))
    const overall = result.score === undefined ? "-" : result.score.toFixed(2)
    yield* printLine(
      `score ${overall}${result.finish_reason ? ` (${shown(result.finish_reason)})` : ""}` +
        (rows.some((row) => row[0]!.endsWith(" *")) ? "; * mandatory" : "")
    )
  })
