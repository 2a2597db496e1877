/**
 * The official Python clients (`ai21` 4.2 and `openai`): their virtual environment, made once, offline, by
 * `scripts/real-clients.mjs`. The suite's global setup makes it before any test file runs, so that no test
 * waits on it; each test file then reads where it is, or why there is none.
 */
import { execFile, execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const script = fileURLToPath(new URL("../../../../scripts/real-clients.mjs", import.meta.url))

/** The interpreter and the `ai21` sources for `PYTHONPATH`, or why the clients cannot run here. */
export interface RealClients {
  readonly python?: string
  readonly pythonPath?: string
  readonly skip?: string
}

/** The clients, read without blocking the test's process (whose runner waits on its answers). */
export const realClients = async (): Promise<RealClients> =>
  JSON.parse((await promisify(execFile)(process.execPath, [script], { encoding: "utf8" })).stdout)

/** Test files that run the clients. */
const needsClients = /interop|python/

/** vitest's global setup: makes the environment in the runner's own process, when the run includes them. */
export default function setup(): void {
  const filters = process.argv.slice(2).filter((arg) => !arg.startsWith("-") && arg !== "run" && arg !== "watch")
  if (filters.length > 0 && !filters.some((filter) => needsClients.test(filter))) return
  execFileSync(process.execPath, [script], { stdio: "ignore" })
}
