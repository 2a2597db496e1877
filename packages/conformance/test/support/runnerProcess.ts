/**
 * A program spawned with this process's `node` that writes one JSON event per line to stdout (as the
 * cluster runner does): its events so far, a promise of the first event that matches, and signals to stop it.
 * Waiting is on the program's own output, never on a timer, except for the bound that fails a test which
 * would otherwise hang.
 */
import { type ChildProcess, spawn } from "node:child_process"

/** An event the program wrote. */
export type RunnerEvent = Record<string, unknown> & { readonly event: string }

/** A running program. */
export interface RunnerProcess {
  readonly name: string
  readonly events: ReadonlyArray<RunnerEvent>
  /** The last 8 KiB the program wrote to stderr. */
  readonly stderr: string
  /** The first event (already written or still to come) for which `matches` holds. */
  readonly waitFor: (what: string, matches: (event: RunnerEvent) => boolean) => Promise<RunnerEvent>
  /** Sends `signal` and resolves when the program has exited. */
  readonly stop: (signal: NodeJS.Signals) => Promise<void>
  readonly exited: Promise<number | null>
}

const waitBound = 90_000

/** Spawns `file` with `env` added to this process's environment. */
export const spawnRunner = (name: string, file: string, env: Record<string, string>): RunnerProcess => {
  const child: ChildProcess = spawn(process.execPath, [file], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const events: Array<RunnerEvent> = []
  const waiters = new Set<() => void>()
  let pending = ""
  let stderr = ""
  child.stdout!.on("data", (data) => {
    pending += String(data)
    const lines = pending.split("\n")
    pending = lines.pop()!
    for (const line of lines) {
      events.push(line.startsWith("{") ? JSON.parse(line) as RunnerEvent : { event: "output", line })
    }
    for (const wake of waiters) wake()
  })
  child.stderr!.on("data", (data) => {
    // the last 8 KiB, to say why a program ended early
    stderr = (stderr + String(data)).slice(-8_192)
  })
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  exited.then(() => {
    for (const wake of waiters) wake()
  })
  const waitFor = (what: string, matches: (event: RunnerEvent) => boolean) =>
    new Promise<RunnerEvent>((resolve, reject) => {
      const timer = setTimeout(
        () => done(new Error(`${name}: no ${what} within ${waitBound} ms\n${stderr}`)),
        waitBound
      )
      const done = (outcome: RunnerEvent | Error) => {
        clearTimeout(timer)
        waiters.delete(check)
        return outcome instanceof Error ? reject(outcome) : resolve(outcome)
      }
      const check = () => {
        const found = events.find(matches)
        if (found !== undefined) return done(found)
        if (child.exitCode !== null || child.signalCode !== null) {
          done(new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before ${what}\n${stderr}`))
        }
      }
      waiters.add(check)
      check()
    })
  const stop = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    return exited.then(() => undefined)
  }
  return {
    name,
    get events() {
      return events
    },
    get stderr() {
      return stderr
    },
    waitFor,
    stop,
    exited
  }
}
