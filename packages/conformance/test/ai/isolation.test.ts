/**
 * Only `studio-effect/ai` loads the line's AI package (`effect/ai`; on Effect 3 `@effect/ai`, an optional peer
 * dependency): importing `studio-effect` (or its reference service) never does. Checked in a fresh Node.js
 * process whose module loader refuses every import of that package or one of its modules.
 */
import { aiPackage, describe, expect, it, packageDir } from "@studio-effect/line"
import { execFile } from "node:child_process"

const root = packageDir

/** A resolve hook that fails any import of the AI package or one of its modules. */
const refusingHook = "data:text/javascript," + encodeURIComponent(
  "export async function resolve(specifier, context, next) {" +
    ` if (specifier === '${aiPackage}' || specifier.startsWith('${aiPackage}/'))` +
    " throw new Error('refused import of ' + specifier);" +
    " return next(specifier, context) }"
)

/** Imports `entry` (relative to the package root) in a process that cannot load the AI package. */
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

describe(`importing studio-effect without ${aiPackage}`, () => {
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
    expect(output).toContain(`refused import of ${aiPackage}`)
  }, 90_000)
})
