/**
 * One turn of the event loop. A property test of thousands of runs that wait on no I/O (synchronous ones, or
 * requests to a service in memory) awaits it in each run, so that its process goes on answering the test
 * runner: a process whose event loop stands still for a minute, as such a test's could, lets the runner's calls
 * to it time out.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
