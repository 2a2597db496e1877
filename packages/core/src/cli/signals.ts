/**
 * The command's signals: Ctrl-C (SIGINT) or SIGTERM interrupts it, unless something waits for Ctrl-C, which
 * then gets it instead.
 *
 * @since 0.1.0
 */

/** What waits for Ctrl-C now: the process has one signal handler, `handleSignals`'s, which hands it on. */
const waitingForCtrlC = new Set<() => void>()

/**
 * Calls `waiter` at the next SIGINT, instead of interrupting the command; returns what stops the wait.
 *
 * @since 0.1.0
 * @category signals
 */
export const waitForCtrlC = (waiter: () => void): () => void => {
  waitingForCtrlC.add(waiter)
  return () => {
    waitingForCtrlC.delete(waiter)
  }
}

/** A failed write is told to its own callback; the stream's 'error' event, thrown when nothing listens, adds nothing. */
const ignoreStreamError = () => {}

/**
 * What `handleSignals` handles: the process (`process`), its signals and its standard streams.
 *
 * @since 0.1.0
 * @category models
 */
export interface SignalledProcess {
  readonly on: (signal: "SIGINT" | "SIGTERM", listener: () => void) => unknown
  readonly removeListener: (signal: "SIGINT" | "SIGTERM", listener: () => void) => unknown
  readonly stdout: { readonly on: (event: "error", listener: () => void) => unknown }
  readonly stderr: { readonly on: (event: "error", listener: () => void) => unknown }
}

/**
 * Handles the signals of `process`: SIGTERM, and SIGINT when nothing waits for Ctrl-C, call `interrupt` once
 * (and remove the handlers); SIGINT otherwise wakes every waiter. Errors of stdout and stderr are left to
 * their writes. Returns what removes the signal handlers.
 *
 * @since 0.1.0
 * @category signals
 */
export const handleSignals = (process: SignalledProcess, interrupt: () => void): () => void => {
  const remove = () => {
    process.removeListener("SIGINT", onInterrupt)
    process.removeListener("SIGTERM", stop)
  }
  const stop = () => {
    remove()
    interrupt()
  }
  const onInterrupt = () => {
    if (waitingForCtrlC.size === 0) return stop()
    for (const waiter of [...waitingForCtrlC]) {
      waitingForCtrlC.delete(waiter)
      waiter()
    }
  }
  process.on("SIGINT", onInterrupt)
  process.on("SIGTERM", stop)
  process.stdout.on("error", ignoreStreamError)
  process.stderr.on("error", ignoreStreamError)
  return remove
}
