/**
 * How what `@effect/cli` prints itself is shown: its help (and version) on stdout without colour unless stdout
 * is a terminal that takes it (not with NO_COLOR set or TERM=dumb), laid out at the terminal's width (80
 * when there is none) and broken between words; its usage errors as one line on stderr with the command's
 * prefix. `@effect/cli` 0.77 writes both through Effect's `Console`, rendered with colour at no width: the
 * command gives it a `Console` that does this, and its own commands keep the process's.
 */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import type { Example } from "studio-effect-core/cli/help"
import { visibleControls } from "studio-effect-core/text/visibleControls"
import { wrap } from "studio-effect-core/text/wrap"

/**
 * How help is laid out on the terminal at hand.
 *
 * @since 0.1.0
 * @category models
 */
export interface Layout {
  readonly colors: boolean
  readonly width: number
}

/**
 * The layout of stdout: colour on a terminal, unless NO_COLOR is set (to anything but the empty string) or
 * TERM is `dumb`, or when FORCE_COLOR is set; its width, or 80 when it is not a terminal.
 *
 * @since 0.1.0
 * @category models
 */
export const layout: Effect.Effect<Layout> = Effect.sync(() => {
  const env = process.env
  const terminal = process.stdout.isTTY === true
  const colors = env["TERM"] !== "dumb" && (env["NO_COLOR"] ?? "") === "" &&
    ((env["FORCE_COLOR"] ?? "") !== "" || terminal)
  const columns = process.stdout.columns ?? 0
  return { colors, width: terminal && columns > 0 ? columns : 80 }
})

/** Colour and style sequences (SGR), the only escapes `@effect/cli` writes. */
const styles = /\u001b\[[0-9;]*m/g

/**
 * Help as it is shown: without its colours unless the layout has them, broken between words at its width,
 * with no trailing blank lines.
 *
 * @since 0.1.0
 * @category rendering
 */
export const render = (text: string, layout: Layout): string =>
  wrap((layout.colors ? text : text.replace(styles, "")).trimEnd(), layout.width)

/**
 * A usage error as one line: its words, without colour, line breaks or indentation.
 *
 * @since 0.1.0
 * @category rendering
 */
export const oneLine = (text: string): string =>
  visibleControls(text.replace(styles, "").trim().replace(/\s*\n\s*/g, " "))

/**
 * The `Console` that `@effect/cli` prints through: `log` (help, version, completions) rendered for the layout,
 * `error` (usage errors) as one line with the `studio-effect:` prefix; the rest is `console`'s.
 *
 * @since 0.1.0
 * @category consoles
 */
export const console = (console: Console.Console, layout: Layout): Console.Console => ({
  ...console,
  log: (...args) => console.log(render(args.join(" "), layout)),
  error: (...args) => console.error(`studio-effect: ${oneLine(args.join(" "))}`)
})

/**
 * A command's description followed by its examples, each a comment line saying what it does, then the command
 * line (`@effect/cli` 0.77 has no examples of its own: they are part of the description it shows).
 *
 * @since 0.2.0
 * @category rendering
 */
export const described = (description: string, examples: ReadonlyArray<Example>): HelpDoc.HelpDoc =>
  HelpDoc.blocks([
    HelpDoc.p(description),
    HelpDoc.p("EXAMPLES"),
    ...examples.map((example) => HelpDoc.p(`  # ${example.description}\n  ${example.command}`))
  ])
