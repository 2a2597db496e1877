/**
 * Every example (and the demo) runs against the embedded reference service: no key, no network.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../..", import.meta.url))
const examples = readdirSync(new URL("../../examples", import.meta.url))
  .filter((name) => name.endsWith(".ts") && name !== "layer.ts")

const run = (file: string) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const env: Record<string, string | undefined> = { ...process.env, STUDIO_API_KEY: "", STUDIO_BASE_URL: "" }
    execFile(
      "node",
      ["--conditions=@studio-effect/source", "--import", "tsx", `examples/${file}`],
      { cwd: root, env, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, output: stdout + stderr })
    )
  })

describe("examples run against the reference service", () => {
  for (const file of examples) {
    it(file, async () => {
      const { code, output } = await run(file)
      expect(code, output).toBe(0)
      expect(output).toMatch(/reference service/)
    }, 90_000)
  }
})
