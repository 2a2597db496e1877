/**
 * `studio-effect` on terminals of 60 and 120 columns (util-linux `script` runs the built bin on a pseudo-terminal
 * of that width): every help fits the width, shows examples and the defaults; a followed run's progress line,
 * redrawn in place, stays one line of the terminal (a line that wraps leaves a trail of stale lines), against a
 * service over HTTP whose run id is long.
 */
import { afterAll, beforeAll, describe, expect, it, packageDir } from "@studio-effect/line"
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { length } from "studio-effect-core/text/codePoints"

const bin = join(packageDir, "bin/studio-effect.mjs")

interface Shown {
  readonly code: number
  /** What the terminal shows: the command's stdout and stderr, as written. */
  readonly shown: string
}

/** The command on a pseudo-terminal of `columns` columns; arguments reach it through the environment, as they are. */
const onTerminal = (args: ReadonlyArray<string>, columns: number, env: Record<string, string> = {}) =>
  new Promise<Shown>((resolve) => {
    const argv = args.map((_, i) => `"$ARG${i}"`).join(" ")
    const command = `stty cols ${columns}; ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} ${argv}`
    execFile(
      "/usr/bin/script",
      ["-qfec", command, "/dev/null"],
      {
        cwd: packageDir,
        env: {
          ...process.env,
          STUDIO_API_KEY: "",
          STUDIO_BASE_URL: "",
          NO_COLOR: "1",
          TERM: "xterm-256color",
          SHELL: "/bin/sh",
          ...Object.fromEntries(args.map((arg, i) => [`ARG${i}`, arg])),
          ...env
        },
        timeout: 60_000
      },
      (error, stdout) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, shown: stdout })
    )
  })

/** The lines a terminal shows, without colour sequences and carriage returns. */
const shownLines = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "").replace(/\r/g, "").split("\n")

const commands: ReadonlyArray<ReadonlyArray<string>> = [
  [],
  ["chat"],
  ["run"],
  ["run", "get"],
  ["run", "watch"],
  ["assistants"],
  ["assistants", "list"],
  ["assistants", "create"],
  ["assistants", "get"],
  ["assistants", "update"],
  ["assistants", "run"],
  ["assistants", "delete"],
  ["files"],
  ["files", "upload"],
  ["files", "list"],
  ["files", "get"],
  ["files", "update"],
  ["files", "delete"],
  ["files", "search"],
  ["files", "download"],
  ["files", "parsed"],
  ["models"],
  ["models", "list"],
  ["serve"]
]

/** Runs `f` on every item, `width` at a time. */
const inBatches = async <A, B>(items: ReadonlyArray<A>, width: number, f: (item: A) => Promise<B>) => {
  const results: Array<B> = []
  for (let i = 0; i < items.length; i += width) results.push(...await Promise.all(items.slice(i, i + width).map(f)))
  return results
}

const hasScript = existsSync("/usr/bin/script")

describe.skipIf(!hasScript)("studio-effect --help on a terminal", { timeout: 240_000 }, () => {
  for (const columns of [60, 120]) {
    it(`every help fits ${columns} columns and shows its examples`, async () => {
      const helps = await inBatches(commands, 4, (command) => onTerminal([...command, "--help"], columns))
      helps.forEach(({ code, shown }, i) => {
        const name = ["studio-effect", ...commands[i]!].join(" ")
        expect(code, `${name}: ${shown}`).toBe(0)
        for (const line of shownLines(shown)) expect(length(line), `${name}: ${line}`).toBeLessThanOrEqual(columns)
        expect(shown, name).toContain("EXAMPLES")
        expect(shown, name).toContain(`studio-effect ${commands[i]![0] ?? ""}`.trim())
      })
      // the width is the terminal's: at 120 columns a line is longer than the 80 of a pipe
      if (columns === 120) {
        expect(Math.max(...helps.flatMap(({ shown }) => shownLines(shown).map((line) => length(line)))))
          .toBeGreaterThan(80)
      }
    })
  }

  it("the help shows the defaults and the exit codes", async () => {
    const [root, chat, serve] = await Promise.all(
      [["--help"], ["chat", "--help"], ["serve", "--help"]].map((args) => onTerminal(args, 120))
    )
    const flat = (text: string) => shownLines(text).join(" ").replace(/\s+/g, " ")
    expect(flat(root!.shown)).toContain(
      "Exit codes: 0 success, 1 the service failed, 2 usage error, 4 no key or a refused key (401/403), 130 Ctrl-C"
    )
    expect(flat(chat!.shown)).toContain("(default: fpmodel-mini)")
    expect(flat(serve!.shown)).toContain("(default: 8080)")
    expect(flat(serve!.shown)).toContain("(default: 127.0.0.1)")
  })
})

/** A run id longer than a 60-column terminal's line. */
const longId = `run_${"0123456789abcdef".repeat(5)}`
let server: Http.Server
let url = ""

beforeAll(async () => {
  // a run (the tests start one at a time) is in progress when started and at its first poll, then completed
  let polls = 0
  server = Http.createServer((request, response) => {
    request.resume()
    request.on("end", () => {
      polls = request.method === "POST" ? 0 : polls + 1
      const status = polls < 2 ? "in_progress" : "completed"
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify({ id: longId, status, result: status === "completed" ? "Two tips." : null }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise((resolve) => server.close(resolve)))

describe.skipIf(!hasScript)("studio-effect run's progress line on a terminal", { timeout: 120_000 }, () => {
  for (const columns of [60, 120]) {
    it(`at ${columns} columns each redraw is one line of the terminal`, async () => {
      const { code, shown } = await onTerminal(["run", "Write two tips"], columns, {
        STUDIO_BASE_URL: url,
        STUDIO_API_KEY: "any-key"
      })
      expect(code, shown).toBe(0)
      const redraws = shown.split("\r\u001b[2K").slice(1)
      expect(redraws.length, shown).toBeGreaterThan(1)
      redraws.forEach((redraw, i) => {
        // a redraw is one line: nothing but the last ends it, and that one ends the progress
        const [line, ...rest] = redraw.split(/\r?\n/)
        if (i < redraws.length - 1) expect(rest, redraw).toEqual([])
        expect(length(line!), line).toBeLessThanOrEqual(columns - 1)
        expect(line).toMatch(/^run run_0123\S*: (in_progress|completed), \d+\.\ds, \d+ polls?$/)
      })
      expect(redraws.at(-1)).toMatch(/: completed, /)
      if (columns === 120) expect(redraws[0]).toContain(`run ${longId.slice(0, 63)}…: in_progress`)
      else expect(redraws[0]).toMatch(/^run run_0123\S*…: in_progress, 0\.\ds, 0 polls$/)
      expect(shown).toContain("Two tips.")
    })
  }
})
