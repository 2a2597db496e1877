/**
 * The soak: many mixed requests and streams at a given concurrency against the reference service on
 * 127.0.0.1 with random injected faults (seeded, bounded in count, delays under half a second), on the
 * real clock. Every outcome must be a success or a typed error (no defect, no hang); afterwards no socket
 * may stay open beyond the pool, no fiber of the run may still be alive, and the heap must be back within a
 * bound. `runSoak` returns the counts by outcome and the leak checks.
 *
 * As a script (`npm run soak`) it runs at full scale and prints the report:
 *   npm run soak -- --requests=10000 --concurrency=64 --faultRate=0.2 --seed=1
 */
import { countFibers, Effect, Exit, hasDie, hasInterrupt, Schedule, timeoutFail } from "@studio-effect/line/effect"
import { pathToFileURL } from "node:url"
import * as v8 from "node:v8"
import * as vm from "node:vm"
import { Assistants, Chat, Maestro, type StudioClient } from "studio-effect"
import * as Reference from "studio-effect/reference"
import {
  canaries,
  chatRequest,
  clientLayer,
  failuresOf,
  referenceServer,
  runRequest,
  showError,
  type TransportName
} from "./harness.js"

const { Fault } = Reference

export interface SoakOptions {
  /** How many operations (requests, streams, polled runs) in all. */
  readonly requests: number
  readonly concurrency: number
  /** The probability that a request gets a fault. */
  readonly faultRate: number
  readonly seed: number
  /** The transport (default `undici`, with its own connection pool, closed at the end). */
  readonly transport?: TransportName | undefined
  /** How long one operation may take before it counts as a hang (default 30 s). */
  readonly hangAfterMillis?: number | undefined
}

export interface SoakReport {
  readonly options: SoakOptions
  readonly durationMillis: number
  /** Operations by kind. */
  readonly operations: Record<string, number>
  /** Outcomes: `success`, or the tag of the typed error; `defect`, `interrupted` and `hang` must stay 0. */
  readonly outcomes: Record<string, number>
  readonly faultsInjected: number
  readonly requestsSeen: number
  readonly connections: {
    readonly accepted: number
    /** Open when the last operation ended, with the client's pool still alive (at most 2 × `concurrency`). */
    readonly openAtEnd: number
    /** Open once the client's pool was closed (must be 0). */
    readonly openAfterClose: number
  }
  /** Fibers started by the soak (client, server, operations) still alive after it ended (must be 0). */
  readonly fibersAlive: number
  readonly heap: {
    readonly gc: boolean
    readonly beforeMB: number
    readonly afterMB: number
    readonly boundMB: number
  }
  /** Errors whose printed forms contained a canary (must be 0). */
  readonly secretLeaks: number
  /** What went wrong; empty when the soak passed. */
  readonly problems: ReadonlyArray<string>
}

/** The garbage collector: `--expose-gc` if given, otherwise enabled at run time through V8's flags. */
const collector = (): (() => void) | undefined => {
  const exposed = (globalThis as { gc?: () => void }).gc
  if (exposed !== undefined) return exposed
  try {
    v8.setFlagsFromString("--expose-gc")
    return vm.runInNewContext("gc") as () => void
  } catch {
    return undefined
  }
}

const heapMB = (gc: (() => void) | undefined) => {
  gc?.()
  gc?.()
  return process.memoryUsage().heapUsed / 1024 / 1024
}

/** A seeded generator (mulberry32), for the mix of operations. */
const random = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The faults drawn from: retryable statuses, 429 with a short Retry-After, drops, cuts, slow answers, 4xx. */
const faults: ReadonlyArray<Reference.Fault.Fault> = [
  Fault.status(500),
  Fault.status(502),
  Fault.status(503),
  Fault.status(504),
  Fault.status(429, { headers: { "retry-after-ms": "20" } }),
  Fault.status(400, { detail: "Injected bad request" }),
  Fault.status(404),
  Fault.drop,
  Fault.dropMidStream(1),
  Fault.dropMidStream(3),
  Fault.cutStream(1),
  Fault.cutStream(3),
  // Longer than the attempt timeout below: the attempt times out and is retried.
  Fault.delay("400 millis"),
  Fault.delay("50 millis")
]

type Operation = readonly [string, Effect.Effect<unknown, unknown, StudioClient.StudioClient>]

const pollFast = { schedule: Schedule.spaced("20 millis"), deadline: "5 seconds" } as const

const pick = (roll: number, index: number): Operation => {
  if (roll < 0.35) return ["chat.create", Chat.create({ ...chatRequest, max_tokens: 16 + (index % 64) })]
  if (roll < 0.65) {
    return ["chat.stream", Chat.accumulate(Chat.stream({ ...chatRequest, max_tokens: 8 + (index % 96) }))]
  }
  if (roll < 0.8) return ["maestro.createAndPoll", Maestro.createAndPoll(runRequest, pollFast)]
  if (roll < 0.9) {
    return [
      "assistants.create+run",
      Effect.flatMap(
        Assistants.create({ name: `soak-${index}` }),
        (assistant) => Assistants.run(assistant.id, { input: [{ role: "user", content: "Hi" }] })
      )
    ]
  }
  if (roll < 0.95) return ["maestro.retrieve (unknown)", Maestro.retrieve(`missing-${index}`)]
  return ["chat.create (invalid)", Chat.create({ ...chatRequest, temperature: 5 })]
}

/** Runs the soak and returns its report (see `SoakReport`); it never throws for a failed check. */
export const runSoak = async (options: SoakOptions): Promise<SoakReport> => {
  const gc = collector()
  const before = heapMB(gc)
  const started = performance.now()
  const operations: Record<string, number> = {}
  const outcomes: Record<string, number> = {}
  const problems: Array<string> = []
  let faultsInjected = 0
  let secretLeaks = 0
  const maxFaults = Math.ceil(options.requests * options.faultRate * 2)
  const hangAfter = options.hangAfterMillis ?? 30_000
  // every fiber of the run, counted as the runtime starts and ends it
  const fibers = { started: 0, ended: 0 }
  const roll = random(options.seed)
  const planned = Fault.random({ probability: options.faultRate, faults, seed: options.seed })
  const plan = typeof planned === "function" ? planned : () => undefined

  const program = Effect.scoped(Effect.gen(function*() {
    const server = yield* referenceServer({
      runStepDuration: "10 millis",
      faults: (request) => {
        if (faultsInjected >= maxFaults) return undefined
        const fault = plan(request)
        if (fault !== undefined && fault !== null) faultsInjected++
        return fault
      }
    })
    const client = clientLayer(server.url, options.transport ?? "undici", {
      timeout: "250 millis",
      streamIdleTimeout: "2 seconds"
    })
    const openAtEnd = yield* Effect.scoped(
      Effect.gen(function*() {
        const context = yield* Effect.context<StudioClient.StudioClient>()
        yield* Effect.forEach(
          Array.from({ length: options.requests }, (_, index) => index),
          (index) => {
            const [kind, operation] = pick(roll(), index)
            operations[kind] = (operations[kind] ?? 0) + 1
            return operation.pipe(
              Effect.provide(context),
              timeoutFail(`${hangAfter} millis`, () => ({ _tag: "hang" as const })),
              Effect.exit,
              Effect.map((exit) => {
                const outcome = classify(exit)
                outcomes[outcome] = (outcomes[outcome] ?? 0) + 1
                if (Exit.isFailure(exit)) {
                  const shown = [...failuresOf(exit.cause)].map(showError).join("\n")
                  if (canaries.some((canary) => shown.includes(canary))) secretLeaks++
                }
              })
            )
          },
          { concurrency: options.concurrency, discard: true }
        )
        // Sockets the client has just destroyed reach the server's `close` a moment later.
        yield* Effect.sleep("200 millis")
        return server.open()
      }).pipe(Effect.provide(client))
    )
    // With the pool closed, the server must see every connection close.
    for (let turn = 0; turn < 200 && server.open() > 0; turn++) yield* Effect.sleep("10 millis")
    return {
      accepted: server.accepted(),
      openAtEnd,
      openAfterClose: server.open(),
      requestsSeen: server.arrivals.length
    }
  }))

  const connections = await Effect.runPromise(countFibers(program, fibers))
  // Fibers end asynchronously after their scope closes: give them a few turns.
  const live = () => fibers.started - fibers.ended
  for (let turn = 0; turn < 100 && live() > 0; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const alive = live()
  const durationMillis = Math.round(performance.now() - started)
  const after = heapMB(gc)
  const boundMB = 64

  const bad = ["defect", "interrupted", "hang", "untyped"]
  for (const outcome of bad) if ((outcomes[outcome] ?? 0) > 0) problems.push(`${outcomes[outcome]} ${outcome}`)
  const total = Object.values(outcomes).reduce((a, b) => a + b, 0)
  if (total !== options.requests) problems.push(`${total} outcomes for ${options.requests} operations`)
  // The transport may open a second socket while the first is being released (seen even with one request
  // at a time), so the pool is bounded by twice the concurrency; a leak grows with the number of requests.
  if (connections.openAtEnd > 2 * options.concurrency) {
    problems.push(`${connections.openAtEnd} sockets open with ${options.concurrency} operations at a time`)
  }
  if (connections.openAfterClose > 0) problems.push(`${connections.openAfterClose} sockets open after the pool closed`)
  if (fibers.started === 0) problems.push("no fiber was counted: the fiber count checks nothing")
  if (alive !== 0) problems.push(`${alive} fibers still alive`)
  if (after - before > boundMB) problems.push(`heap grew by ${(after - before).toFixed(1)} MB`)
  if (secretLeaks > 0) problems.push(`${secretLeaks} errors showed a canary`)

  return {
    options,
    durationMillis,
    operations,
    outcomes,
    faultsInjected,
    requestsSeen: connections.requestsSeen,
    connections: {
      accepted: connections.accepted,
      openAtEnd: connections.openAtEnd,
      openAfterClose: connections.openAfterClose
    },
    fibersAlive: alive,
    heap: { gc: gc !== undefined, beforeMB: round(before), afterMB: round(after), boundMB },
    secretLeaks,
    problems
  }
}

const round = (value: number) => Math.round(value * 10) / 10

const studioTags = new Set([
  "ValidationError",
  "AuthError",
  "RateLimit",
  "NotFound",
  "ApiError",
  "TransportError",
  "TimeoutError",
  "DecodeError",
  "RunFailed",
  "PollTimeout"
])

/** `success`, the tag of a typed error, or what went wrong instead. */
const classify = (exit: Exit.Exit<unknown, unknown>): string => {
  if (Exit.isSuccess(exit)) return "success"
  if (hasDie(exit.cause)) return "defect"
  const failures = [...failuresOf(exit.cause)]
  if (failures.length === 0) return hasInterrupt(exit.cause) ? "interrupted" : "untyped"
  const tag = (failures[0] as { _tag?: unknown })._tag
  if (tag === "hang") return "hang"
  return typeof tag === "string" && studioTags.has(tag) ? tag : "untyped"
}

/** Prints a report as the lines of a table. */
export const formatReport = (report: SoakReport): string => {
  const lines = [
    `soak: ${report.options.requests} operations at concurrency ${report.options.concurrency}, fault rate ${report.options.faultRate}, seed ${report.options.seed}, ${report.durationMillis} ms`,
    `requests seen by the service: ${report.requestsSeen}; faults injected: ${report.faultsInjected}`,
    "operations: " + Object.entries(report.operations).map(([k, v]) => `${k} ${v}`).join(", "),
    "outcomes:",
    ...Object.entries(report.outcomes).sort(([, a], [, b]) => b - a).map(([k, v]) => `  ${k.padEnd(16)} ${v}`),
    `connections: ${report.connections.accepted} accepted, ${report.connections.openAtEnd} open at the end (pool alive), ${report.connections.openAfterClose} after the pool closed`,
    `fibers alive afterwards: ${report.fibersAlive}`,
    `heap: ${report.heap.beforeMB} MB before, ${report.heap.afterMB} MB after (gc ${
      report.heap.gc ? "on" : "unavailable"
    }, bound +${report.heap.boundMB} MB)`,
    `secret leaks: ${report.secretLeaks}`,
    report.problems.length === 0 ? "PASS" : `FAIL: ${report.problems.join("; ")}`
  ]
  return lines.join("\n")
}

const isScript = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href

if (isScript) {
  const args = Object.fromEntries(
    process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string])
  )
  const report = await runSoak({
    requests: Number(args["requests"] ?? 10_000),
    concurrency: Number(args["concurrency"] ?? 64),
    faultRate: Number(args["faultRate"] ?? 0.2),
    seed: Number(args["seed"] ?? 1),
    transport: (args["transport"] ?? "undici") as TransportName
  })
  process.stdout.write(`${formatReport(report)}\n`)
  process.exitCode = report.problems.length === 0 ? 0 : 1
}
