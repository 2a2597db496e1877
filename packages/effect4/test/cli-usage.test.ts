/**
 * The `studio-effect` command's help as `effect/cli` writes it, the command framework of this line: the
 * usage line of every command. (What the command does is tested once for both lines, in the conformance
 * suite's cli.test.ts.) The built bin (bin/studio-effect.mjs over dist/, built by the global setup).
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const bin = fileURLToPath(new URL("../bin/studio-effect.mjs", import.meta.url))

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

describe("studio-effect --help, as `effect/cli` writes it", { timeout: 120_000 }, () => {
  it("the usage line of every command names its whole command path", async () => {
    const helps = await Promise.all(commands.map(help))
    helps.forEach((result, i) => {
      const command = commands[i]!
      expect(result.code, result.stderr).toBe(0)
      // effect/cli's usage line names the whole command path
      expect(result.stdout).toContain(`USAGE\n  ${["studio-effect", ...command].join(" ")} `)
    })
  })
})
