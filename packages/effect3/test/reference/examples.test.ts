/**
 * Every example (and the demo) runs against the embedded reference service: no key, no network. Each runs as
 * a user runs it: emitted as JavaScript and run with plain `node`, importing the built package (dist/, built
 * by the global setup; see support/runnable.ts).
 */
import { afterAll, beforeAll, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { emitRunnable, runNode } from "../support/runnable.js"

const root = fileURLToPath(new URL("../..", import.meta.url))
const sources = readdirSync(join(root, "examples")).filter((name) => name.endsWith(".ts"))
const examples = sources.filter((name) => name !== "layer.ts")
const emittedDir = join(root, ".runnable", "examples")

beforeAll(() => {
  rmSync(emittedDir, { recursive: true, force: true })
  // every module, layer.ts too: the examples import it as ./layer.js
  emitRunnable(
    emittedDir,
    sources.map((name) => ({ path: name, source: readFileSync(join(root, "examples", name), "utf8") }))
  )
})

afterAll(() => rmSync(emittedDir, { recursive: true, force: true }))

describe.concurrent("examples run against the reference service", () => {
  for (const file of examples) {
    it(file, async ({ expect }) => {
      const { code, output } = await runNode(join(emittedDir, file.replace(/\.ts$/, ".js")), {
        env: { STUDIO_API_KEY: "", STUDIO_BASE_URL: "" },
        timeout: 60_000
      })
      expect(code, output).toBe(0)
      expect(output).toMatch(/reference service/)
    }, 90_000)
  }
})
