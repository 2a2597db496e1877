// Runs the test suites of the workspace and prints one closing line, `N passed, N failed`.
//
//   node scripts/test.mjs            the core, and each Effect line on a Node.js it supports (`npm test`)
//   node scripts/test.mjs --matrix   the core, the Effect 3 line on Node 20 and 24, the Effect 4 line and the AI SDK
//                                    provider on 22 and 24
//   node scripts/test.mjs effect4    one package (core, effect3, effect4 or ai-sdk); extra arguments go to vitest
//
// A Node.js the machine lacks comes from the npm registry (scripts/node.mjs). Suites run one after another:
// each one already runs its files in parallel. After the last suite, beside the closing line, each failure is
// repeated: a failed test (its name and the start of its error), a file that failed while none of its tests did
// (its import, a hook), and what vitest reported outside the files for a suite that exited with a failure anyway.
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs"
import { dirname, join, relative } from "node:path"
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

/** What a suite printed, kept to its last `outputBound` characters: enough for the errors vitest prints last. */
const outputBound = 4 << 20
const ansi = /\u001b\[[0-9;]*m/g

/** Runs one suite, passing its output through, and resolves with its exit status and the output kept. */
const runSuite = (node, args, options) =>
  new Promise((resolve) => {
    let output = ""
    const keep = (chunk) => {
      output = (output + chunk).slice(-outputBound)
    }
    const child = spawn(node, args, { ...options, stdio: ["inherit", "pipe", "pipe"] })
    child.stdout.setEncoding("utf8")
    child.stderr.setEncoding("utf8")
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk)
      keep(chunk)
    })
    child.stderr.on("data", (chunk) => {
      process.stderr.write(chunk)
      keep(chunk)
    })
    child.on("close", (status, signal) => resolve({ status: status ?? signal, output: output.replace(ansi, "") }))
  })

/**
 * The errors vitest reported outside any test (its "Unhandled Errors" section), or the last lines printed when there
 * is no such section: what makes a suite whose tests all passed exit with a failure.
 */
const errorsOutsideTests = (output) => {
  const lines = output.split("\n")
  const start = lines.findIndex((line) => /Unhandled (Errors?|Rejection)/.test(line))
  const end = lines.findIndex((line, i) => i > start && /^\s*Test Files\b/.test(line))
  const section = start >= 0 ? lines.slice(start, end > start ? end : undefined) : lines.slice(-40)
  return section.slice(0, 80).join("\n")
}

rmSync(reports, { recursive: true, force: true })
mkdirSync(reports)
let passed = 0
let failed = 0
let skipped = 0
const outsideTests = []
const failedTests = []
for (const { dir, name, node } of runs) {
  const version = spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim()
  const report = join(reports, `${name}-node${version}.json`)
  const suite = `${name} on Node.js ${version}`
  console.log(`\n== ${suite}`)
  const started = Date.now()
  const vitest = join(root, dir, "node_modules/vitest/vitest.mjs")
  const result = await runSuite(
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
      env: {
        ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}),
        ...process.env,
        PATH: `${dirname(node)}:${process.env.PATH}`
      }
    }
  )
  const r = existsSync(report) ? JSON.parse(readFileSync(report, "utf8")) : undefined
  let filesFailed = 0
  for (const file of r?.testResults ?? []) {
    const tests = (file.assertionResults ?? []).filter((test) => test.status === "failed")
    for (const test of tests) failedTests.push({ suite, file: file.name, test })
    // a file that failed while none of its tests did (its import, a hook)
    if (file.status === "failed" && tests.length === 0) {
      filesFailed++
      failedTests.push({ suite, file: file.name, test: { fullName: "(the file)", failureMessages: [file.message] } })
    }
  }
  const suiteFailed = r === undefined ? 0 : (r.numFailedTests ?? 0) + filesFailed
  // a failure no test accounts for: no report, or an exit with a failure while every test passed
  const outside = suiteFailed === 0 && (r === undefined || result.status !== 0)
  if (outside) outsideTests.push({ suite, status: result.status, text: errorsOutsideTests(result.output) })
  if (r === undefined) {
    console.log(`${suite}: no report (exit ${result.status})`)
    failed++
    continue
  }
  passed += r.numPassedTests ?? 0
  failed += suiteFailed + (outside ? 1 : 0)
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0)
  console.log(
    `${suite}: ${r.numPassedTests} passed, ${suiteFailed} failed${
      outside ? `, and exit ${result.status} from an error outside the tests` : ""
    } in ${Math.round((Date.now() - started) / 1000)} s`
  )
}
/** The most failures repeated, each with at most this many lines of its error. */
const repeatedFailures = 20
const errorLines = 30
for (const { file, suite, test } of failedTests.slice(0, repeatedFailures)) {
  const message = (test.failureMessages ?? []).join("\n").replace(ansi, "").split("\n").slice(0, errorLines).join("\n")
  console.log(`\n== failed in ${suite}: ${relative(root, file)} > ${test.fullName}\n${message}`)
}
if (failedTests.length > repeatedFailures) {
  console.log(`\n== and ${failedTests.length - repeatedFailures} more failures (above, and in .reports/)`)
}
for (const { suite, status, text } of outsideTests) {
  console.log(`\n== ${suite} exited ${status} with no failed test reported; what it printed:\n${text}`)
}
console.log(`\n${passed} passed, ${failed} failed` + (skipped > 0 ? `, ${skipped} skipped` : ""))
process.exit(failed > 0 || passed === 0 ? 1 : 0)
