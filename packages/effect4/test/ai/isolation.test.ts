/**
 * Only `studio-effect/ai` loads `effect/ai`: importing `studio-effect` (or its reference service) never
 * does. Checked in a fresh Node.js process whose module loader refuses every import of `effect/ai` or one
 * of its modules.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../..", import.meta.url))

/** A resolve hook that fails any import of `effect/ai` or one of its modules. */
const refusingHook = "data:text/javascript," + encodeURIComponent(
  "export async function resolve(specifier, context, next) {" +
    " if (specifier === 'effect/ai' || specifier.startsWith('effect/ai/'))" +
    " throw new Error('refused import of ' + specifier);" +
    " return next(specifier, context) }"
)

/** Imports `entry` (relative to the package root) in a process that cannot load `effect/ai`. */
const importWithoutAi = (entry: string) =>
  new Promise<{ readonly code: number | null; readonly output: string }>((resolve) => {
    const script = `import { register } from "node:module";` +
      `register(${JSON.stringify(refusingHook)});` +
      `await import(${JSON.stringify(new URL(entry, `file://${root}/`).href)});` +
      `console.log("imported");`
    execFile(
      "node",
      ["--conditions=@studio-effect/source", "--import", "tsx", "--input-type=module", "-e", script],
      { cwd: root, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, output: stdout + stderr })
    )
  })

describe("importing studio-effect without effect/ai", () => {
  it("studio-effect and studio-effect/reference load without it", async () => {
    for (const entry of ["src/index.ts", "src/reference/index.ts"]) {
      const { code, output } = await importWithoutAi(entry)
      expect(code, output).toBe(0)
      expect(output).toContain("imported")
    }
  }, 90_000)

  it("studio-effect/ai needs it (the check can fail)", async () => {
    const { code, output } = await importWithoutAi("src/ai/index.ts")
    expect(code).not.toBe(0)
    expect(output).toContain("refused import of effect/ai")
  }, 90_000)
})
