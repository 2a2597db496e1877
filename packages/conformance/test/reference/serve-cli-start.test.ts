/**
 * What `studio-effect serve` says on start: its address, and the lines that point the command and the SDK at
 * it, which work as printed (the built bin spawned on 127.0.0.1, port 0; the printed lines given to a second
 * command); and no key it accepts, wherever the key came from, is ever printed.
 */
import { afterAll, describe, expect, it, packageDir } from "@studio-effect/line"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { chmodSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { stop } from "../support/serve.js"
import { tempDirectory } from "../support/tempDirectory.js"

const bin = join(packageDir, "bin/studio-effect.mjs")
const noClient = { STUDIO_API_KEY: "", STUDIO_BASE_URL: "", STUDIO_SERVE_API_KEYS: "" }

/** `serve` with `args` and `env`, and its stdout once it has printed the command to try. */
const serving = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ readonly child: ChildProcess; readonly out: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", ...args], {
      cwd: packageDir,
      env: { ...process.env, ...noClient, ...env }
    })
    let out = ""
    child.stdout.on("data", (data) => {
      out += String(data)
      if (out.includes("studio-effect chat \"Hello\"\n")) resolve({ child, out })
    })
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)))
  })

/** The variables the start-up lines export, as a shell reads them. */
const exported = (out: string): Record<string, string> =>
  Object.fromEntries(
    [...out.matchAll(/^ {2}export (STUDIO_\w+)=(.*)$/gm)].map((
      [, name, value]
    ) => [name!, value!.replace(/^'(.*)'$/, "$1")])
  )

/** A directory holding `studio-effect`, the built bin, for a shell's PATH. */
const commandDirectory = (() => {
  const directory = tempDirectory("serve-start-bin-", afterAll)
  const command = join(directory, "studio-effect")
  writeFileSync(command, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} "$@"\n`)
  chmodSync(command, 0o755)
  return directory
})()

/** The indented lines `serve` printed, run by a shell as a user pastes them. */
const pasted = (out: string) =>
  new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((resolve) => {
    const lines = out.split("\n").filter((line) => line.startsWith("  ")).map((line) => line.trim())
    execFile(
      "/bin/sh",
      ["-c", lines.join("\n")],
      {
        cwd: packageDir,
        env: { ...process.env, ...noClient, PATH: `${commandDirectory}:${process.env["PATH"]}` },
        timeout: 60_000
      },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    ).stdin?.end("")
  })

describe.concurrent("serve: its start-up lines", { timeout: 120_000 }, () => {
  it("say the address and the lines that point a client at it, which work as printed", async () => {
    const { child, out } = await serving([])
    try {
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!
      expect(out).toContain("Any bearer token is accepted.")
      expect(out).toContain("Point the command and the SDK (StudioClient.layerConfig) at it, in another shell:")
      const variables = exported(out)
      expect(variables).toEqual({ STUDIO_BASE_URL: url, STUDIO_API_KEY: "any-key" })
      const answered = await pasted(out)
      expect(answered.code, answered.stderr).toBe(0)
      expect(answered.stdout).toContain("Hello")
    } finally {
      await stop(child)
    }
  })

  for (
    const [source, args, env, placeholder] of [
      [
        "STUDIO_SERVE_API_KEYS",
        [],
        { STUDIO_SERVE_API_KEYS: "sk-env-secret-1,sk-env-secret-2" },
        "'<a-key-of-STUDIO_SERVE_API_KEYS>'"
      ],
      ["--api-key", ["--api-key", "sk-flag-secret-1"], {}, "'<a-key-given-with--api-key>'"]
    ] as const
  ) {
    it(`a key from ${source} is never printed: the line names where to take one`, async () => {
      const { child, out } = await serving(args, env)
      try {
        expect(out).not.toMatch(/sk-(env|flag)-secret/)
        expect(out).toContain(`  export STUDIO_API_KEY=${placeholder}\n`)
        // the lines pasted as they are set a key that is refused
        const refused = await pasted(out)
        expect(refused.code).toBe(4)
        expect(refused.stderr).toMatch(/^studio-effect: /)
      } finally {
        await stop(child)
      }
    })
  }

  it("a key from --api-key-file is never printed", async ({ onTestFinished }) => {
    const directory = tempDirectory("serve-start-", onTestFinished)
    const file = join(directory, "keys")
    writeFileSync(file, "# accepted keys\nsk-file-secret-1\n")
    const { child, out } = await serving(["--api-key-file", file])
    try {
      expect(out).not.toContain("sk-file-secret-1")
      expect(out).toContain("Accepted keys: 1")
      expect(out).toContain("  export STUDIO_API_KEY='<a-key-of-the--api-key-file>'\n")
      // with the placeholder replaced by a key of the file, the lines work
      const answered = await pasted(out.replace("'<a-key-of-the--api-key-file>'", "sk-file-secret-1"))
      expect(answered.code, answered.stderr).toBe(0)
    } finally {
      await stop(child)
    }
  })
})
