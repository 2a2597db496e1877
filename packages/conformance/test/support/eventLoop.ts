/**
 * One turn of the event loop. A property test of thousands of synchronous runs awaits it in each run, so that
 * its process goes on answering the test runner: a process blocked for a minute, as such a test can be on a
 * loaded machine, lets the runner's calls to it time out.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
