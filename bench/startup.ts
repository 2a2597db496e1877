/**
 * Start-up costs, each measured in a fresh process with no loader, as an application loads the built
 * packages: the time of `await import(<entry>)` inside the process, and the whole run of a command (from
 * spawn to exit) such as `studio-effect --version`.
 */
import { spawn } from "node:child_process"
import { performance } from "node:perf_hooks"

/** The output, exit code and wall time of one process. */
const run = (
  node: string,
  args: ReadonlyArray<string>,
  cwd: string
): Promise<{ readonly code: number | null; readonly out: string; readonly err: string; readonly ms: number }> =>
  new Promise((resolve, reject) => {
    const start = performance.now()
    const child = spawn(node, args, { cwd, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    let err = ""
    child.stdout.on("data", (data: Buffer) => (out += data.toString()))
    child.stderr.on("data", (data: Buffer) => (err += data.toString()))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, out, err, ms: performance.now() - start }))
  })

/**
 * The line of a failed process's error output that names its error (Node.js prints the source line that threw
 * above it), or its first line; for the report.
 */
const errorLine = (text: string): string => {
  const lines = text.split("\n").map((line) => line.trim()).filter((line) => line !== "")
  return lines.find((line) => /^[A-Za-z]*Error\b/.test(line)) ?? lines[0] ?? "no output"
}

/**
 * Milliseconds of `await import(specifier)` (of all of them at once, when several) in a fresh process of
 * `node`, resolved from `cwd`.
 */
export const importTime = async (
  node: string,
  specifier: string | ReadonlyArray<string>,
  cwd: string
): Promise<number> => {
  const specifiers = typeof specifier === "string" ? [specifier] : specifier
  const source = [
    "const start = performance.now()",
    `await Promise.all(${JSON.stringify(specifiers)}.map((specifier) => import(specifier)))`,
    "process.stdout.write(JSON.stringify({ ms: performance.now() - start }) + \"\\n\")"
  ].join("\n")
  const { code, err, out } = await run(node, ["--input-type=module", "--eval", source], cwd)
  if (code !== 0) throw new Error(`import "${specifiers.join("\", \"")}" failed: ${errorLine(err)}`)
  return JSON.parse(out.trim()).ms
}

/** Milliseconds from spawning `node <args>` to its exit; the command must succeed and print something. */
export const commandTime = async (node: string, args: ReadonlyArray<string>, cwd: string): Promise<number> => {
  const { code, err, ms, out } = await run(node, args, cwd)
  if (code !== 0 || out.trim() === "") throw new Error(`\`${args.join(" ")}\` failed: ${errorLine(err)}`)
  return ms
}
