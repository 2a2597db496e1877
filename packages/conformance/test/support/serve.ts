/**
 * `studio-effect serve` as a user runs it: the built bin (bin/studio-effect.mjs over dist/, built by the
 * global setup for test files whose names match `cli` or `package`) spawned as a process on 127.0.0.1.
 */
import { Effect, packageDir, type Scope } from "@studio-effect/line"
import { type ChildProcess, spawn } from "node:child_process"
import { join } from "node:path"

const root = packageDir
const bin = join(packageDir, "bin/studio-effect.mjs")

/**
 * A running `serve`, its URL read from its banner: the package's built bin, or `command` (the program and its
 * arguments before `serve`) run in `cwd`.
 */
export const startServe = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {},
  { command = [process.execPath, bin], cwd = root }: {
    readonly command?: ReadonlyArray<string>
    readonly cwd?: string
  } = {}
) =>
  new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
    const child = spawn(command[0]!, [...command.slice(1), "serve", ...args], {
      cwd,
      env: { ...process.env, STUDIO_API_KEY: "", STUDIO_BASE_URL: "", STUDIO_SERVE_API_KEYS: "", ...env }
    })
    let out = ""
    child.stdout.on("data", (data) => {
      out += String(data)
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match !== null) resolve({ child, url: match[1]! })
    })
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)))
  })

/** Interrupts a `serve` (SIGINT unless another signal is given) and resolves with its exit code. */
export const stop = (child: ChildProcess, signal: NodeJS.Signals = "SIGINT") =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode)
    child.on("exit", (code) => resolve(code))
    child.kill(signal)
  })

/** `serve --port 0` with `args` for the life of the scope: its URL. */
export const served = (args: ReadonlyArray<string>): Effect.Effect<{ readonly url: string }, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.promise(() => startServe(["--port", "0", ...args])),
      ({ child }) => Effect.promise(() => stop(child))
    ),
    ({ url }) => ({ url })
  )
