/**
 * `scripts/pack.mjs` packs only a built package: one whose entries are missing (never built, or dist/ removed)
 * or older than its sources is refused with the build to run, instead of a tarball with no compiled code.
 * Run on a copy of the line's package (its manifest, bin, sources and the dist/ the global setup built).
 */
import { describe, expect, it, packageDir } from "@studio-effect/line"
import { cpSync, mkdtempSync, rmSync, utimesSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pack } from "../../../scripts/pack.mjs"

/** A copy of the line's package as a clone holds it, with dist/ when `built`. */
const copy = (built: boolean) => {
  const dir = mkdtempSync(join(tmpdir(), "studio-effect-unbuilt-"))
  for (const part of ["package.json", "bin", "src", ...(built ? ["dist"] : [])]) {
    cpSync(join(packageDir, part), join(dir, part), { recursive: true, preserveTimestamps: true })
  }
  return dir
}

describe("packing", () => {
  it("refuses a package that was never built, naming the build to run", async () => {
    const dir = copy(false)
    try {
      await expect(pack(dir, tmpdir())).rejects.toThrow(
        /is not built \(missing [^)]*\.\/dist\/index\.js[^)]*\): run `npm run build`/
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("refuses a package whose sources changed after it was built", async () => {
    const dir = copy(true)
    try {
      const later = new Date(Date.now() + 60_000)
      utimesSync(join(dir, "src/index.ts"), later, later)
      await expect(pack(dir, tmpdir())).rejects.toThrow(/was built before its sources changed: run `npm run build`/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
