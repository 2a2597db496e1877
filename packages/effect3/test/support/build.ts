/**
 * vitest's global setup: builds dist/ afresh (`npm run prepack`: clean, then build, as before packing) once
 * before the tests that run the built command, pack the package or run programs against it (the docs' samples
 * and the examples, see runnable.ts), when the run includes them (a whole run, or one naming them). `prepack`
 * also copies the guides and examples held at the repository's root into the package, as it ships them; they
 * are removed when the run ends.
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { removeGuides } from "../../../../scripts/guides.mjs"

const root = fileURLToPath(new URL("../..", import.meta.url))

/** Test files that need dist/. */
const needsBuild = /cli|cluster|package|docs-samples|examples/

export default function setup(): (() => void) | undefined {
  const filters = process.argv.slice(2).filter((arg) => !arg.startsWith("-") && arg !== "run" && arg !== "watch")
  if (filters.length > 0 && !filters.some((filter) => needsBuild.test(filter))) return undefined
  execFileSync("npm", ["run", "prepack", "--silent"], { cwd: root, stdio: "inherit" })
  return () => removeGuides(root)
}
