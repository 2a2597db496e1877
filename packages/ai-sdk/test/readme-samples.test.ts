/**
 * Every `ts` sample of the README, as a reader copies it: type-checked together with `tsc`, then each run in
 * a process of its own (`tsx`, the package from its sources) against `studio-effect serve` on 127.0.0.1, with
 * `STUDIO_BASE_URL` and `STUDIO_API_KEY` set as the README says. A sample passes when it exits 0.
 */
import { execFile } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Serve, startServe } from "./support/serve.js"

const run = promisify(execFile)
const packageDir = fileURLToPath(new URL("..", import.meta.url))
/** Inside the package, so that `studio-effect-ai-sdk` names the package itself. */
const samplesDir = join(packageDir, ".docs-samples")

const samples = [...readFileSync(join(packageDir, "README.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map(
  (match, i) => ({ name: `sample-${i + 1}.ts`, code: match[1]! })
)

let serve: Serve

beforeAll(async () => {
  rmSync(samplesDir, { recursive: true, force: true })
  mkdirSync(samplesDir)
  for (const { code, name } of samples) writeFileSync(join(samplesDir, name), `export {}\n${code}`)
  writeFileSync(
    join(samplesDir, "tsconfig.json"),
    JSON.stringify({ extends: "../tsconfig.json", include: ["*.ts"] })
  )
  serve = await startServe()
})

afterAll(async () => {
  await serve?.stop()
  rmSync(samplesDir, { recursive: true, force: true })
})

describe("the README's samples", () => {
  it("there are samples of every section", () => {
    expect(samples.length).toBeGreaterThanOrEqual(8)
  })

  it("type-check", async () => {
    const tsc = join(packageDir, "../../node_modules/typescript/bin/tsc")
    await run(process.execPath, [tsc, "--noEmit", "-p", samplesDir], { cwd: packageDir })
  })

  it.each(samples.map(({ name }) => [name]))("%s runs against serve", async (name) => {
    const { stdout } = await run(
      process.execPath,
      ["--conditions=@studio-effect/source", "--import", "tsx", join(samplesDir, name)],
      { cwd: packageDir, env: { ...process.env, STUDIO_BASE_URL: serve.url, STUDIO_API_KEY: "anything" } }
    )
    expect(stdout.length).toBeGreaterThan(0)
    // the errors sample meets both kinds of error, and says so
    if (samples.find((sample) => sample.name === name)!.code.includes("APICallError.isInstance")) {
      expect(stdout).toContain("refused before sending: Invalid chat request")
      expect(stdout).toMatch(/^4\d\d false /m)
    }
  })
})
