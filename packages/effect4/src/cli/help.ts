/**
 * How what `effect/cli` presents itself is shown: its help on stdout in colour only when `TerminalCapabilities`
 * says stdout takes it (a terminal, without NO_COLOR or TERM=dumb), laid out at the terminal's width (80 when
 * there is none) and broken between words, with the global flags listed once, in the root command's help;
 * `--version` as the version alone, as scripts read it; a usage error as one line on stderr with the
 * command's prefix, naming the flag and the value, instead of the help followed by an `ERROR` block.
 */
import type * as CliError from "effect/cli/CliError"
import * as CliOutput from "effect/cli/CliOutput"
import * as TerminalCapabilities from "effect/cli/TerminalCapabilities"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { visibleControls } from "studio-effect-core/text/visibleControls"
import { wrap } from "studio-effect-core/text/wrap"

/** The width help is laid out at: the terminal's, or 80 when stdout is not one. */
const width = (): number => {
  const columns = process.stdout.isTTY === true ? process.stdout.columns ?? 0 : 0
  return columns > 0 ? columns : 80
}

/**
 * A usage error in one line: its first line, then the flags or commands it suggests (`effect/cli` puts them
 * on lines of their own).
 */
const usageError = (error: CliError.NonShowHelpErrors): string => {
  const [first = "", ...rest] = error.message.split("\n")
  const suggestions = "suggestions" in error ? error.suggestions : []
  return suggestions.length > 0
    ? `${first} (did you mean ${suggestions.join(" or ")}?)`
    : [first, ...rest].map((line) => line.trim()).filter((line) => line !== "").join(" ")
}

/**
 * The presenter of `effect/cli`'s own output for `studio-effect`.
 *
 * @since 0.1.0
 * @category presenters
 */
export const presenter = CliOutput.layerPresenter({
  present: (event) =>
    Effect.gen(function*() {
      switch (event._tag) {
        case "Version":
          return yield* Console.log(event.version)
        case "Help": {
          const { canColor } = yield* TerminalCapabilities.TerminalCapabilities
          const formatter = CliOutput.defaultFormatter({ colors: canColor, globalFlags: "summary" })
          return yield* Console.log(wrap(formatter.formatHelpDoc(event.helpDoc), width()))
        }
        case "InvalidInvocation":
          return yield* Console.error(
            visibleControls(
              `studio-effect: ${event.errors.map(usageError).join("; ")}: see ${event.commandPath.join(" ")} --help`
            )
          )
      }
    })
})
