/**
 * What each benchmarked client implements: non-streamed requests and streams, each with a given number in
 * flight, written the way a user of that client would write them.
 */

/** Where to send: the server's origin and a route prefix; every client appends its own path. */
export interface Target {
  /** `http://127.0.0.1:<port>/<mode>/<tokens>`: the SDKs' base URL (the `openai` and `ai21` SDKs add `/studio/v1`). */
  readonly origin: string
}

export interface BenchClient {
  /** Sends `count` non-streamed chat requests, at most `concurrency` at a time; calls `onContent` with each answer's text. */
  readonly requests: (
    target: Target,
    count: number,
    concurrency: number,
    onContent: (content: string) => void
  ) => Promise<void>
  /** Consumes `count` streams, at most `concurrency` at a time; calls `onToken` with each non-empty text delta. */
  readonly streams: (
    target: Target,
    count: number,
    concurrency: number,
    onToken: (text: string) => void
  ) => Promise<void>
  /**
   * Validates a typical request as the SDK does before it sends one, and throws if it is invalid. Only the
   * SDK clients have it: the validation scenario runs on them.
   */
  readonly validate?: (operation: "chat" | "run", input: unknown) => void
  readonly close?: () => Promise<void>
}

/** Runs `count` tasks with at most `concurrency` in flight (for the promise-based clients). */
export const pool = async (count: number, concurrency: number, task: () => Promise<void>): Promise<void> => {
  let next = 0
  const worker = async () => {
    while (next < count) {
      next++
      await task()
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
}

export const chatPath = "/studio/v1/chat/completions"
