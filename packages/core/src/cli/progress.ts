/**
 * How the command shows a run it follows: the progress line (status, elapsed time, polls), what Ctrl-C says,
 * and the run's result with a table of its requirement scores.
 *
 * @since 0.1.0
 */
import { clip, length } from "../text/codePoints.js"
import { visibleControls } from "../text/visibleControls.js"

const seconds = (millis: number): string => `${(millis / 1000).toFixed(1)}s`

/**
 * The progress line of run `id`: its status, the time since it was followed, and how many times it was polled.
 * The id and the status are the service's words, cut short (64 and 40 code points) so that the line, redrawn
 * on every poll, stays one line of a terminal whatever a server sends. Given the terminal's `columns`, the
 * line fits in one column fewer (a line filling the last column wraps on some terminals, and a wrapped line is
 * not erased by the next redraw): the id is cut shorter first, then the status, then the line itself.
 *
 * @since 0.1.0
 * @category formatting
 */
export const progressLine = (
  id: string,
  status: string,
  elapsedMillis: number,
  polls: number,
  columns?: number | undefined
): string => {
  const tail = `${seconds(elapsedMillis)}, ${polls} ${polls === 1 ? "poll" : "polls"}`
  const line = (id: string, status: string) => `run ${id}: ${status}, ${tail}`
  const full = line(clip(id, 64), clip(status, 40))
  if (columns === undefined || columns <= 0) return full
  const room = columns - 1
  const over = (text: string) => length(text) - room
  if (over(full) <= 0) return full
  const shortId = clip(id, Math.max(8, length(clip(id, 64)) - over(full)))
  const withShortId = line(shortId, clip(status, 40))
  if (over(withShortId) <= 0) return withShortId
  const shortStatus = clip(status, Math.max(8, length(clip(status, 40)) - over(withShortId)))
  return clip(line(shortId, shortStatus), Math.max(1, room))
}

/**
 * What redraws a progress line in place on a terminal: back to the line's start, the line erased, then the
 * text with its control characters made visible.
 *
 * @since 0.1.0
 * @category formatting
 */
export const redrawn = (text: string): string => `\r\x1b[2K${visibleControls(text)}`

/**
 * What Ctrl-C while a run is followed says: the run goes on in the service, and how to pick it up; with the
 * embedded reference service, that it ends with the command.
 *
 * @since 0.1.0
 * @category formatting
 */
export const stoppedMessage = (id: string, embedded: boolean): string =>
  embedded
    ? `Stopped run ${id}: the embedded reference service (--reference) ends with this command, and the run with it`
    : `Stopped following run ${id}, which goes on in the service: \`studio-effect run watch ${id}\` follows it ` +
      `again, \`studio-effect run get ${id}\` shows it`

/**
 * The fields of a terminal run that its report shows.
 *
 * @since 0.1.0
 * @category models
 */
export interface ReportedRun {
  readonly result: unknown
  readonly requirements_result?:
    | {
      readonly score?: number | undefined
      readonly finish_reason?: string | null | undefined
      readonly requirements: ReadonlyArray<{
        readonly name: string
        readonly is_mandatory?: boolean | undefined
        readonly score: number
        readonly reason?: string | null | undefined
      }>
    }
    | null
    | undefined
}

const text = (value: unknown): string =>
  typeof value === "string" ? value : value === null || value === undefined ? "(none)" : JSON.stringify(value, null, 2)

/**
 * The lines that report a terminal run: its result, then (when it has requirement scores) a blank line, a
 * table of its requirements with their scores and reasons, and the overall score. `shown` is applied to every
 * text from the service.
 *
 * @since 0.1.0
 * @category formatting
 */
export const runReport = (run: ReportedRun, shown: (text: string) => string): ReadonlyArray<string> => {
  const lines = [shown(text(run.result))]
  const result = run.requirements_result
  if (result === undefined || result === null || result.requirements.length === 0) return lines
  const rows = result.requirements.map((requirement) => [
    shown(requirement.name) + (requirement.is_mandatory === true ? " *" : ""),
    requirement.score.toFixed(2),
    shown(requirement.reason ?? "")
  ])
  const header = ["requirement", "score", "reason"]
  const widths = [0, 1].map((column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)))
  const format = (row: ReadonlyArray<string>) =>
    `${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padStart(widths[1]!)}  ${row[2]!}`.trimEnd()
  const overall = result.score === undefined ? "-" : result.score.toFixed(2)
  return [
    ...lines,
    "",
    format(header),
    ...rows.map(format),
    `score ${overall}${result.finish_reason ? ` (${shown(result.finish_reason)})` : ""}` +
    (rows.some((row) => row[0]!.endsWith(" *")) ? "; * mandatory" : "")
  ]
}
