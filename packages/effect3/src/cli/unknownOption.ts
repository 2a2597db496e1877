/**
 * Options that no command on the command line takes, found before `@effect/cli` parses it: `@effect/cli`
 * 0.77 reads `--modle=x "Hello"` as the prompt `--modle=x` followed by an unknown argument `Hello`, and blames
 * the prompt. This names the option, and the one meant when it is a near miss.
 */
import * as AutoCorrect from "@effect/cli/AutoCorrect"
import * as CliConfig from "@effect/cli/CliConfig"
import * as Descriptor from "@effect/cli/CommandDescriptor"
import type * as Usage from "@effect/cli/Usage"
import * as HashMap from "effect/HashMap"
import * as HashSet from "effect/HashSet"
import * as Option from "effect/Option"

/** The options every command takes, from `@effect/cli` itself. */
const builtIns = ["--help", "-h", "--version", "--wizard", "--completions", "--log-level"]

const namesOf = (usage: Usage.Usage): Array<string> => {
  switch (usage._tag) {
    case "Named":
      return [...usage.names]
    case "Optional":
    case "Repeated":
      return namesOf(usage.usage)
    case "Alternation":
    case "Concat":
      return [...namesOf(usage.left), ...namesOf(usage.right)]
    case "Empty":
    case "Mixed":
      return []
  }
}

/** The command `arg` names under `command`: `getSubcommands` sees one level down, where it gives a command itself. */
const subcommandOf = (
  command: Descriptor.Command<unknown>,
  arg: string
): Descriptor.Command<unknown> | undefined => {
  const found = HashMap.get(Descriptor.getSubcommands(command), arg)
  return Option.isSome(found) && found.value !== command ? found.value : undefined
}

/**
 * The first option on the command line (the command's own arguments, without the runtime and script) that
 * neither the commands it names nor `@effect/cli` take, with what to say about it; none when every option is
 * known. `commands` are the root's subcommands, whole (with subcommands of their own). Arguments after `--`
 * are not options.
 *
 * @since 0.1.0
 * @category parsing
 */
export const unknownOption = (
  root: { readonly name: string; readonly descriptor: Descriptor.Command<unknown> },
  commands: ReadonlyArray<Descriptor.Command<unknown>>,
  args: ReadonlyArray<string>
): Option.Option<string> => {
  const path = [root.name]
  const known = new Set(builtIns)
  let command = root.descriptor
  const options: Array<string> = []
  for (const arg of args) {
    if (arg === "--") break
    const subcommand = path.length === 1
      ? commands.find((command) => HashSet.has(Descriptor.getNames(command), arg))
      : subcommandOf(command, arg)
    if (subcommand !== undefined) {
      for (const option of namesOf(Descriptor.getUsage(command))) known.add(option)
      command = subcommand
      path.push(arg)
    } else if (/^--?[A-Za-z]/.test(arg)) {
      options.push(arg.split("=")[0]!)
    }
  }
  for (const option of namesOf(Descriptor.getUsage(command))) known.add(option)
  const unknown = options.find((option) => !known.has(option))
  if (unknown === undefined) return Option.none()
  const closest = [...known]
    .map((option) => [option, AutoCorrect.levensteinDistance(unknown, option, CliConfig.defaultConfig)] as const)
    .filter(([, distance]) => distance <= CliConfig.defaultConfig.autoCorrectLimit)
    .sort((a, b) => a[1] - b[1])[0]
  return Option.some(
    `Unknown option ${unknown} for ${path.join(" ")}` +
      (closest === undefined ? "" : ` (did you mean ${closest[0]}?)`) + `: see ${path.join(" ")} --help`
  )
}
