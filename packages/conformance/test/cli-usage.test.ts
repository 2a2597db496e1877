/**
 * The `studio-effect` command's help as the command framework of the line writes it (`effect/cli` on Effect 4,
 * `@effect/cli` on Effect 3): the usage line of every command. (What the command does is tested in
 * cli.test.ts.) The built bin (bin/studio-effect.mjs over dist/, built by the global setup).
 */
import { describe, expect, it, line, packageDir } from "@studio-effect/line"
import { execFile } from "node:child_process"
import { join } from "node:path"

const root = packageDir
const bin = join(packageDir, "bin/studio-effect.mjs")

const help = (command: ReadonlyArray<string>) =>
  new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...command, "--help"],
      { cwd: root, env: { ...process.env, STUDIO_API_KEY: "", STUDIO_BASE_URL: "", NO_COLOR: "1" }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    ).stdin?.end("")
  })

const commands: ReadonlyArray<ReadonlyArray<string>> = [
  [],
  ["chat"],
  ["run"],
  ["assistants"],
  ["assistants", "list"],
  ["assistants", "create"],
  ["assistants", "get"],
  ["assistants", "update"],
  ["assistants", "run"],
  ["run", "get"],
  ["run", "watch"],
  ["assistants", "delete"],
  ["serve"]
]

/** The line running the suite: its command framework is the one thing the lines differ by here. */
const onEffect4 = (line as string) === "effect4"
const framework = onEffect4 ? "`effect/cli`" : "`@effect/cli`"

describe(`studio-effect --help, as ${framework} writes it`, { timeout: 120_000 }, () => {
  if (onEffect4) {
    it("the usage line of every command names its whole command path", async () => {
      const helps = await Promise.all(commands.map(help))
      helps.forEach((result, i) => {
        const command = commands[i]!
        expect(result.code, result.stderr).toBe(0)
        // effect/cli's usage line names the whole command path
        expect(result.stdout).toContain(`USAGE\n  ${["studio-effect", ...command].join(" ")} `)
      })
    })
  } else {
    it("the usage line of every command is a shell line of its last word", async () => {
      const helps = await Promise.all(commands.map(help))
      helps.forEach((result, i) => {
        const command = commands[i]!
        expect(result.code, result.stderr).toBe(0)
        // @effect/cli's usage line is a shell line naming the command's last word
        expect(result.stdout).toContain("USAGE")
        expect(result.stdout).toContain(`$ ${command.at(-1) ?? "studio-effect"}`)
      })
    })
  }
})
