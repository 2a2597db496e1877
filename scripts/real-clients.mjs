#!/usr/bin/env node
/**
 * The official Python clients (`ai21` 4.2 and `openai`), set up for the tests that replay them against
 * `studio-effect serve`: a virtual environment in `.venv-clients` at the repository's root (ignored by git),
 * made once, offline, from the wheels in `../shared/real-clients/python/wheels`, with the `ai21` sources on
 * `PYTHONPATH`. Prints one line of JSON: `{"python": <path>, "pythonPath": <dir>}` when the clients are
 * ready, or `{"skip": <why>}` when they cannot be (no Python 3.11, no wheels).
 */
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, renameSync, rmSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const clients = resolve(root, "..", "shared", "real-clients", "python")
const wheels = join(clients, "wheels")
const ai21 = join(clients, "ai21-4.2.0")
const venv = join(root, ".venv-clients")
const packages = ["httpx", "pydantic", "tenacity", "typing-extensions", "openai"]

const answer = (value) => {
  process.stdout.write(`${JSON.stringify(value)}\n`)
  process.exit(0)
}

/** A Python 3.11 interpreter on the PATH, or undefined. */
const python311 = () => {
  for (const candidate of ["python3.11", "python3"]) {
    const probe = spawnSync(candidate, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], {
      encoding: "utf8"
    })
    if (probe.status === 0 && probe.stdout.trim() === "3.11") return candidate
  }
  return undefined
}

const importsWork = (python) =>
  spawnSync(python, ["-c", "import ai21, openai"], { env: { ...process.env, PYTHONPATH: ai21 } }).status === 0

if (!existsSync(wheels) || !existsSync(ai21)) {
  answer({ skip: `the real Python clients are not at ${clients}` })
}
const ready = join(venv, "bin", "python")
if (existsSync(ready) && importsWork(ready)) answer({ python: ready, pythonPath: ai21 })
const python = python311()
if (python === undefined) answer({ skip: "Python 3.11 is not on the PATH (the clients' wheels are for CPython 3.11)" })

// made aside and moved into place, so that two test runs at once never see half a venv
const scratch = mkdtempSync(join(root, ".venv-clients-"))
try {
  execFileSync(python, ["-m", "venv", scratch], { stdio: "ignore" })
  execFileSync(join(scratch, "bin", "pip"), [
    "install",
    "--quiet",
    "--disable-pip-version-check",
    "--no-index",
    "--find-links",
    wheels,
    ...packages
  ], { stdio: "ignore" })
  if (!existsSync(ready)) renameSync(scratch, venv)
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
if (!importsWork(ready)) answer({ skip: `the clients do not import in ${venv}` })
answer({ python: ready, pythonPath: ai21 })
