// Runs the test suites of the workspace and prints one closing line, `N passed, N failed`.
//
//   node scripts/test.mjs            the core, and each Effect line on a Node.js it supports (`npm test`)
//   node scripts/test.mjs --matrix   the core, the Effect 3 line on Node 20 and 24, the Effect 4 line and the AI SDK
//                                    provider on 22 and 24
//   node scripts/test.mjs effect4    one package (core, effect3, effect4 or ai-sdk); extra arguments go to vitest
//
// A Node.js the machine lacks comes from the npm registry (scripts/node.mjs). Suites run one after another:
// each one already runs its files in parallel.
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { nodeAtLeast, nodeBinary } from "./node.mjs"

const root = fileURLToPath(new URL("..", import.meta.url))
const reports = join(root, ".reports")

/** The oldest Node.js each package supports (what `npm test` needs), and the majors of the matrix. */
const packages = {
  core: { dir: "packages/core", minimum: "20.18.1", matrix: [] },
  effect3: { dir: "packages/effect3", minimum: "20.18.1", matrix: [20, 24] },
  effect4: { dir: "packages/effect4", minimum: "22.19.0", matrix: [22, 24] },
  "ai-sdk": { dir: "packages/ai-sdk", minimum: "22.19.0", matrix: [22, 24] }
}

const args = process.argv.slice(2)
const matrix = args.includes("--matrix")
const named = args.filter((arg) => arg in packages)
const vitestArgs = args.filter((arg) => arg !== "--matrix" && !(arg in packages))

const runs = Object.entries(packages)
  .filter(([name]) => named.length === 0 || named.includes(name))
  .flatMap(([name, { dir, matrix: majors, minimum }]) =>
    matrix && majors.length > 0
      ? majors.map((major) => ({ name, dir, node: nodeBinary(major) }))
      : [{ name, dir, node: nodeAtLeast(minimum) }]
  )

rmSync(reports, { recursive: true, force: true })
mkdirSync(reports)
let passed = 0
let failed = 0
let skipped = 0
for (const { dir, name, node } of runs) {
  const version = spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim()
  const report = join(reports, `${name}-node${version}.json`)
  console.log(`\n== ${name} on Node.js ${version}`)
  const started = Date.now()
  const vitest = join(root, dir, "node_modules/vitest/vitest.mjs")
  const result = spawnSync(
    node,
    [
      existsSync(vitest) ? vitest : join(root, "node_modules/vitest/vitest.mjs"),
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
      ...vitestArgs
    ],
    {
      cwd: join(root, dir),
      stdio: "inherit",
      env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` }
    }
  )
  if (!existsSync(report)) {
    console.log(`${name} on Node.js ${version}: no report (exit ${result.status})`)
    failed++
    continue
  }
  const r = JSON.parse(readFileSync(report, "utf8"))
  const suiteFailed = (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0)
  passed += r.numPassedTests ?? 0
  failed += suiteFailed + (suiteFailed === 0 && result.status !== 0 ? 1 : 0)
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0)
  console.log(
    `${name} on Node.js ${version}: ${r.numPassedTests} passed, ${suiteFailed} failed in ${
      Math.round((Date.now() - started) / 1000)
    } s`
  )
}
console.log(`\n${passed} passed, ${failed} failed` + (skipped > 0 ? `, ${skipped} skipped` : ""))
process.exit(failed > 0 || passed === 0 ? 1 : 0)
