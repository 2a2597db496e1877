/**
 * Text laid out for a terminal of a given width: lines too long for it are broken between words, never
 * inside one, so that a terminal's own wrapping (which cuts at the last column, mid-word) never happens.
 *
 * @since 0.1.0
 */

/** Colour and style sequences (SGR) take no column. */
const styles = /\u001b\[[0-9;]*m/g

/** The columns `text` takes: its code points, less its colour and style sequences. */
const columns = (text: string): number => [...text.replace(styles, "")].length

/** A row of two columns, `name  what it does`, two spaces or more apart: its first column and the gap. */
const row = /^(\s*\S+(?: \S+)*\s{2,})\S/

/**
 * What a long line keeps as it is (its indentation, or the first column of a row when that column ends in the
 * left half), and the column where its continuation lines start (under what follows).
 */
const headOf = (line: string, width: number): { readonly head: string; readonly hanging: number } => {
  const first = row.exec(line)?.[1]
  if (first !== undefined && columns(first) <= width / 2) return { head: first, hanging: columns(first) }
  const indentation = line.slice(0, line.length - line.trimStart().length)
  return { head: indentation, hanging: columns(indentation) }
}

const wrapLine = (line: string, width: number): Array<string> => {
  if (columns(line) <= width) return [line]
  const { hanging, head } = headOf(line, width)
  const lines: Array<string> = []
  let current = head
  let used = hanging
  let empty = true
  // a row's first column keeps its line alone when not even the first word after it fits beside it
  const alone = (word: number) => lines.length === 0 && current === head && head.trim() !== "" && used + word > width
  for (const word of line.slice(head.length).split(" ").filter((word) => word !== "")) {
    const size = columns(word)
    if ((!empty && used + 1 + size > width) || (empty && alone(size))) {
      lines.push(current.trimEnd())
      current = " ".repeat(hanging)
      used = hanging
      empty = true
    }
    current += empty ? word : ` ${word}`
    used += empty ? size : 1 + size
    empty = false
  }
  lines.push(current)
  return lines
}

/**
 * `text` with each line longer than `width` columns broken at spaces into lines of at most `width` columns
 * (a word longer than that stays whole on a line of its own); the lines it continues start under the line's
 * indentation, or under the second column of a two-column row. Lines that fit are kept as they are.
 *
 * @since 0.1.0
 * @category text
 */
export const wrap = (text: string, width: number): string =>
  text.split("\n").flatMap((line) => wrapLine(line, Math.max(1, Math.floor(width)))).join("\n")
