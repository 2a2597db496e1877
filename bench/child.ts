/**
 * Runs the scenarios of one client in this process, each after a warm-up, and prints one JSON line with the
 * measurements of each repetition and the Node.js version:
 * `node --expose-gc --conditions=@studio-effect/source <TypeScript flags> bench/child.ts <client module> <jobs as
 * JSON>`, the module being a file that exports `client` (a `BenchClient`), the flags Node's own type transform
 * or `tsx` (`typescriptFlags` in `run.ts`). A client that misses a token fails the run.
 */
import { performance } from "node:perf_hooks"
import { pathToFileURL } from "node:url"
import type { BenchClient, Target } from "./clients/BenchClient.js"
import {
  addToken,
  completionContent,
  emptyTally,
  expectedStreamTally,
  type Tally,
  typicalChatRequest,
  typicalRunRequest
} from "./fixtures.js"
import { median } from "./median.js"

export interface Params {
  readonly origin: string
  readonly reps: number
  /** Requests or streams per repetition. */
  readonly count: number
  readonly concurrency: number
  /** Tokens per stream. */
  readonly tokens: number
  readonly mode: "events" | "coalesced"
  /** Validations per repetition. */
  readonly iterations: number
  /**
   * Requests or streams of the warm-up. Every client warms up alike, and long enough for the JIT to settle
   * (as in a long-running backend): Effect-based clients reach their steady cost only after a few thousand
   * operations.
   */
  readonly warmUp: number
}

/** The measurements of one repetition, named by what they measure. */
export type Sample = Record<string, number>

const gc = (): void => {
  const collect = (globalThis as { gc?: () => void }).gc
  if (collect !== undefined) {
    collect()
    collect()
  }
}

const sameTally = (a: Tally, b: Tally) => a.count === b.count && a.length === b.length && a.hash === b.hash

/**
 * A missing or extra token fails the run; the right count with other characters (a character cut across
 * reads and decoded as U+FFFD) is reported as `garbled` so the table can flag it.
 */
const check = (what: string, got: Tally, expected: Tally): Sample => {
  if (got.count !== expected.count) {
    throw new Error(`${what}: received ${got.count} tokens, expected ${expected.count}`)
  }
  return sameTally(got, expected) ? {} : { garbled: 1 }
}

/** Peak memory above the level at `start`, sampled on a timer and every 4096 tokens. */
class MemoryWatch {
  private readonly startHeap: number
  private readonly startBuffers: number
  private peakHeap: number
  private peakBuffers: number
  private peakTotal: number
  private readonly timer: NodeJS.Timeout
  constructor() {
    gc()
    const { arrayBuffers, heapUsed } = process.memoryUsage()
    this.startHeap = this.peakHeap = heapUsed
    this.startBuffers = this.peakBuffers = arrayBuffers
    this.peakTotal = heapUsed + arrayBuffers
    this.timer = setInterval(() => this.sample(), 5)
  }
  sample(): void {
    const { arrayBuffers, heapUsed } = process.memoryUsage()
    if (heapUsed > this.peakHeap) this.peakHeap = heapUsed
    if (arrayBuffers > this.peakBuffers) this.peakBuffers = arrayBuffers
    if (heapUsed + arrayBuffers > this.peakTotal) this.peakTotal = heapUsed + arrayBuffers
  }
  stop() {
    clearInterval(this.timer)
    this.sample()
    const mib = 1024 * 1024
    gc()
    const after = process.memoryUsage()
    return {
      heapPeakMiB: (this.peakHeap - this.startHeap) / mib,
      arrayBuffersPeakMiB: (this.peakBuffers - this.startBuffers) / mib,
      heldPeakMiB: (this.peakTotal - this.startHeap - this.startBuffers) / mib,
      heapRetainedMiB: (after.heapUsed - this.startHeap) / mib
    }
  }
}

/** CPU time (user and system) of this process since `start`, in µs: the client's own work, not the server's. */
const cpuMicros = (start: NodeJS.CpuUsage): number => {
  const { system, user } = process.cpuUsage(start)
  return user + system
}

const target = (params: Params, mode: string, tokens: number): Target => ({
  origin: `${params.origin}/${mode}/${tokens}`
})

const requests = async (client: BenchClient, params: Params, count: number): Promise<Sample> => {
  const tally = emptyTally()
  const cpu = process.cpuUsage()
  const start = performance.now()
  await client.requests(target(params, "events", 0), count, params.concurrency, (content) => addToken(tally, content))
  const ms = performance.now() - start
  const cpuUs = cpuMicros(cpu)
  const expected = emptyTally()
  for (let i = 0; i < count; i++) addToken(expected, completionContent)
  return {
    ...check("answers", tally, expected),
    usPerRequest: (ms * 1000) / count,
    requestsPerSecond: count / (ms / 1000),
    cpuUsPerRequest: cpuUs / count
  }
}

const streams = async (
  client: BenchClient,
  params: Params,
  count: number,
  tokens: number,
  watchMemory: boolean
): Promise<Sample> => {
  const tally = emptyTally()
  const memory = watchMemory ? new MemoryWatch() : undefined
  let firstToken = 0
  const cpu = process.cpuUsage()
  const start = performance.now()
  await client.streams(target(params, params.mode, tokens), count, params.concurrency, (text) => {
    if (tally.count === 0) firstToken = performance.now()
    addToken(tally, text)
    if (memory !== undefined && (tally.count & 4095) === 0) memory.sample()
  })
  const ms = performance.now() - start
  const cpuUs = cpuMicros(cpu)
  return {
    ...check(`${count} stream(s) of ${tokens} tokens`, tally, expectedStreamTally(tokens, count)),
    cpuUsPerStream: cpuUs / count,
    tokensPerSecond: tally.count / (ms / 1000),
    streamsPerSecond: count / (ms / 1000),
    firstTokenMs: firstToken - start,
    ...(memory === undefined ? {} : memory.stop())
  }
}

/**
 * The time to the first token of `count` streams run one after another: the median of theirs. One stream's
 * first token swings with the timing of the server and the machine (from 2 to 12 ms for one client in one
 * run); a median of many shows the client's own cost.
 */
const firstTokens = async (client: BenchClient, params: Params, count: number): Promise<Sample> => {
  const times: Array<number> = []
  let garbled = 0
  for (let i = 0; i < count; i++) {
    const sample = await streams(client, params, 1, params.tokens, false)
    times.push(sample["firstTokenMs"]!)
    garbled = Math.max(garbled, sample["garbled"] ?? 0)
  }
  return { firstTokenMs: median(times), ...(garbled === 0 ? {} : { garbled }) }
}

const validation = async (client: BenchClient, params: Params): Promise<Sample> => {
  const validate = client.validate
  if (validate === undefined) throw new Error("the validation scenario needs an SDK client (one with `validate`)")
  const time = (operation: "chat" | "run", input: unknown) => {
    const start = performance.now()
    for (let i = 0; i < params.iterations; i++) validate(operation, input)
    return ((performance.now() - start) * 1000) / params.iterations
  }
  return {
    chatValidationUs: time("chat", typicalChatRequest),
    runValidationUs: time("run", typicalRunRequest)
  }
}

type Scenario = (client: BenchClient, params: Params) => Promise<Sample>

const scenarios: Record<string, { warmUp: Scenario; measure: Scenario }> = {
  requests: {
    warmUp: (client, params) => requests(client, params, params.warmUp),
    measure: (client, params) => requests(client, params, params.count)
  },
  streams: {
    warmUp: (client, params) =>
      streams(
        client,
        params,
        params.warmUp,
        // the same address as the measured streams (the token count is in the path), so that clients that
        // keep a connection or a runtime per address measure it warm; a one-stream scenario warms on a
        // whole stream, up to 100,000 tokens
        params.count === 1 && params.tokens <= 100_000 ? params.tokens : Math.max(64, Math.ceil(params.tokens / 10)),
        false
      ),
    measure: (client, params) => streams(client, params, params.count, params.tokens, params.count === 1)
  },
  "first-token": {
    warmUp: (client, params) => firstTokens(client, params, params.warmUp),
    measure: (client, params) => firstTokens(client, params, params.count)
  },
  validation: {
    warmUp: (client, params) => validation(client, { ...params, iterations: Math.max(5000, params.iterations) }),
    measure: validation
  }
}

/** One scenario with its parameters; a child runs one or more in turn. */
export interface Job {
  readonly scenario: string
  readonly params: Params
}

const main = async () => {
  const [clientModule, json] = process.argv.slice(2)
  const jobs = JSON.parse(json!) as ReadonlyArray<Job>
  const { client } = (await import(pathToFileURL(clientModule!).href)) as { client: BenchClient }
  const results: Array<Array<Sample>> = []
  for (const job of jobs) {
    const scenario = scenarios[job.scenario]
    if (scenario === undefined) throw new Error(`no scenario ${job.scenario}`)
    await scenario.warmUp(client, job.params)
    const samples: Array<Sample> = []
    // No forced collection between repetitions (a scenario that watches memory makes its own), so that each
    // runs in the steady state of a backend under load. A forced one clears every hidden class that only the
    // last repetition's objects had, and V8 then throws away the optimized code that embedded one
    // ("embedded weak objects cleared"): the repetition after it ran partly unoptimized. Measured (Node.js
    // 24, 8 repetitions of 125 short streams after 750): with a collection before each, 164 pieces of code
    // thrown away and 493 µs of the SDK's CPU a stream; without, none and 362 µs (raw `fetch`: 360 and 425).
    // A repetition that a full collection falls in costs more (the SDK: 920 µs, where 11 others took
    // 269-421); the median over repetitions leaves it out for every client alike.
    for (let rep = 0; rep < job.params.reps; rep++) samples.push(await scenario.measure(client, job.params))
    results.push(samples)
  }
  await client.close?.()
  process.stdout.write(JSON.stringify({ node: process.versions.node, results }) + "\n")
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stdout.write(JSON.stringify({ error: String(error?.stack ?? error) }) + "\n")
    process.exit(1)
  }
)
