/**
 * `studio-effect files` on a terminal prints the service's text through the terminal-safe printer: a file's
 * name, its text in search results and the JSON of `files get` reach a pseudo-terminal (util-linux `script`)
 * with their control sequences shown as escapes (an OSC 52 clipboard write, a clear-screen, a C1 CSI), never
 * obeyed. The built bin runs against a reference service over HTTP.
 */
import { afterAll, beforeAll, describe, Effect, Exit, expect, it, packageDir, Scope } from "@studio-effect/line"
import { execFile } from "node:child_process"
import { existsSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Reference from "studio-effect/reference"
import { tempDirectory } from "./support/tempDirectory.js"

const bin = join(packageDir, "bin/studio-effect.mjs")
const key = "cli-terminal-key"
const clipboard = "\u001b]52;c;b3duZWQ=\u0007"
const clear = "\u001b[2J"
const c1 = "\u009b31m"
/** What a terminal would obey: ESC, BEL and the C1 controls. */
const obeyed = /[\u001b\u0007\u0080-\u009f]/u

const scope = Effect.runSync(Scope.make())
let url = ""

beforeAll(async () => {
  const listening = await Effect.runPromise(
    Effect.provideService(
      Reference.listen({ port: 0, apiKeys: [key], fileProcessingDuration: 0 }),
      Scope.Scope,
      scope
    )
  )
  url = listening.url
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

interface Ran {
  readonly code: number
  readonly stdout: string
}

const environment = () => ({ ...process.env, NO_COLOR: "1", STUDIO_BASE_URL: url, STUDIO_API_KEY: key })

/** The command with its output into a pipe. */
const piped = (args: ReadonlyArray<string>) =>
  new Promise<Ran>((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: packageDir, env: environment(), timeout: 60_000 }, (
      error,
      stdout
    ) => resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout })).stdin?.end(
      ""
    )
  })

/** The command on a pseudo-terminal; arguments reach it through the environment, as they are. */
const onTerminal = (args: ReadonlyArray<string>) =>
  new Promise<Ran>((resolve) => {
    const argv = args.map((_, i) => `"$ARG${i}"`).join(" ")
    const command = `stty cols 120; ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} ${argv}`
    execFile(
      "/usr/bin/script",
      ["-qfec", command, "/dev/null"],
      {
        cwd: packageDir,
        env: {
          ...environment(),
          TERM: "xterm-256color",
          SHELL: "/bin/sh",
          ...Object.fromEntries(args.map((arg, i) => [`ARG${i}`, arg]))
        },
        timeout: 60_000
      },
      (error, stdout) => resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout })
    )
  })

describe.skipIf(!existsSync("/usr/bin/script"))("studio-effect files on a terminal", { timeout: 120_000 }, () => {
  it("list, search and get show the service's control sequences as escapes", async ({ onTestFinished }) => {
    const directory = tempDirectory("cli-terminal-", onTestFinished)
    const file = join(directory, `notes${clipboard}${c1}.txt`)
    writeFileSync(file, `Steeping notes ${clipboard} then ${clear} and ${c1} for green tea.`)
    const uploaded = await piped(["files", "upload", file])
    expect(uploaded.code, uploaded.stdout).toBe(0)
    const id = uploaded.stdout.trim()

    const list = await onTerminal(["files", "list"])
    expect(list.code, list.stdout).toBe(0)
    expect(list.stdout).toContain("notes\\x1b]52;c;b3duZWQ=\\x07\\x9b31m.txt")

    const search = await onTerminal(["files", "search", "steeping green tea"])
    expect(search.code, search.stdout).toBe(0)
    expect(search.stdout).toContain("\\x1b[2J")
    expect(search.stdout).toContain("\\x9b31m")

    const got = await onTerminal(["files", "get", id])
    expect(got.code, got.stdout).toBe(0)
    expect(got.stdout).toContain("\\x9b31m")

    for (const output of [list.stdout, search.stdout, got.stdout]) expect(output).not.toMatch(obeyed)
  })

  it("into a pipe, the service's text is data: written as it was sent", async () => {
    const listed = await piped(["files", "list", "--json"])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(c1)
  })
})
