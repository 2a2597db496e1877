/**
 * `npm run bench`: starts the loopback server in its own process, runs every client in its own process per
 * scenario (a warm-up, then several repetitions), and prints a Markdown table of medians with ratios to raw
 * `fetch`, then each target with its verdict.
 *
 * Environment: `BENCH_SCALE` (default 1) scales every count, `BENCH_REPS` (default 5) the repetitions,
 * `BENCH_CLIENTS` and `BENCH_SCENARIOS` (comma-separated) pick clients and scenarios, `BENCH_JSON` names a
 * file for the raw results.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { Job, Params, Sample } from "./child.js"

const benchDir = path.dirname(fileURLToPath(import.meta.url))
const root = path.dirname(benchDir)

/** Every client, the baseline first. */
export const allClients = [
  "fetch",
  "undici",
  "ai21",
  "openai",
  "effect-fetch",
  "effect-undici",
  "studio-fetch",
  "studio-undici",
  "studio-sdk-undici",
  "studio-bridge"
] as const

export const clientLabels: Record<string, string> = {
  "fetch": "raw `fetch` + hand parser",
  "undici": "`undici` + `eventsource-parser`",
  "ai21": "`ai21` 1.1.0",
  "openai": "`openai` 6.30.1",
  "effect-fetch": "Effect floor, `FetchHttpClient`",
  "effect-undici": "Effect floor, `NodeHttpClient.layerUndici`",
  "studio-fetch": "studio-effect, `FetchHttpClient`",
  "studio-undici": "studio-effect, `NodeHttpClient.layerUndici`",
  "studio-sdk-undici": "studio-effect, `UndiciHttpClient` (`studio-effect/undici`)",
  "studio-bridge": "studio-effect outside Effect (`Chat.toAsyncIterable`, `UndiciHttpClient`)"
}

export interface ScenarioSpec {
  readonly id: string
  readonly scenario: string
  readonly params: Omit<Params, "origin">
  /** Only these clients run it. */
  readonly clients?: ReadonlyArray<string>
}

export const scenarioSpecs = (scale: number, reps: number): ReadonlyArray<ScenarioSpec> => {
  const n = (count: number, min = 1) => Math.max(min, Math.round(count * scale))
  const base = { reps, count: 1, concurrency: 1, tokens: 0, mode: "events" as const, iterations: 0, warmUp: 1 }
  const requestsWarmUp = n(5000, 4)
  return [
    { id: "sequential", scenario: "requests", params: { ...base, count: n(2000, 4), warmUp: requestsWarmUp } },
    {
      id: "concurrent",
      scenario: "requests",
      params: { ...base, count: n(2000, 4), concurrency: 32, warmUp: requestsWarmUp }
    },
    { id: "stream-events", scenario: "streams", params: { ...base, tokens: n(100_000, 100), warmUp: 3 } },
    {
      id: "stream-coalesced",
      scenario: "streams",
      params: { ...base, tokens: n(100_000, 100), mode: "coalesced", warmUp: 3 }
    },
    {
      id: "short-streams",
      scenario: "streams",
      params: { ...base, count: n(500, 2), tokens: 64, concurrency: 16, warmUp: n(3000, 2) }
    },
    {
      id: "long-stream",
      scenario: "streams",
      params: { ...base, reps: Math.min(reps, 3), tokens: n(1_000_000, 1000), mode: "coalesced" }
    },
    {
      id: "validation",
      scenario: "validation",
      params: { ...base, iterations: n(2000, 20) },
      clients: ["studio-undici"]
    }
  ]
}

const startServer = (): Promise<{ origin: string; process: ChildProcess }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      "--conditions=@studio-effect/source",
      "--import",
      "tsx",
      path.join(benchDir, "server.ts")
    ], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    child.stdout!.on("data", (data: Buffer) => {
      out += data.toString()
      const line = out.indexOf("\n")
      if (line !== -1) resolve({ origin: `http://127.0.0.1:${JSON.parse(out.slice(0, line)).port}`, process: child })
    })
    child.on("exit", (code) => reject(new Error(`the bench server exited with ${code}`)))
  })

const runChild = (client: string, jobs: ReadonlyArray<Job>): Promise<Array<Array<Sample>>> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--expose-gc",
        "--conditions=@studio-effect/source",
        "--import",
        "tsx",
        path.join(benchDir, "child.ts"),
        client,
        JSON.stringify(jobs)
      ],
      { cwd: root, stdio: ["ignore", "pipe", "inherit"] }
    )
    let out = ""
    child.stdout!.on("data", (data: Buffer) => (out += data.toString()))
    child.on("exit", () => {
      const last = out.trim().split("\n").pop() ?? ""
      try {
        const parsed = JSON.parse(last)
        if (parsed.error !== undefined) reject(new Error(`${client}: ${parsed.error}`))
        else resolve(parsed.results)
      } catch {
        reject(new Error(`${client}: no result (${out.slice(-500)})`))
      }
    })
  })

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Medians of every measurement, by scenario id, then client. */
export type Results = Record<string, Record<string, Sample>>

const summarize = (samples: ReadonlyArray<Sample>): Sample => {
  const out: Sample = {}
  for (const key of Object.keys(samples[0] ?? {})) {
    out[key] = key === "garbled"
      ? Math.max(...samples.map((s) => s[key] ?? 0))
      : median(samples.map((s) => s[key] ?? 0))
  }
  return out
}

export interface RunOptions {
  readonly scale: number
  readonly reps: number
  readonly clients: ReadonlyArray<string>
  /** Run all scenarios of a client in one process (quicker start; for the smoke test). */
  readonly oneProcessPerClient?: boolean
  /** Only these scenarios (by id); all when absent. */
  readonly scenarios?: ReadonlyArray<string> | undefined
  readonly log?: (line: string) => void
}

/** Runs the benchmark and returns the medians. */
export const runBench = async (options: RunOptions): Promise<Results> => {
  const log = options.log ?? (() => {})
  const server = await startServer()
  const results: Results = {}
  try {
    const specs = scenarioSpecs(options.scale, options.reps).filter((spec) =>
      options.scenarios === undefined || options.scenarios.includes(spec.id)
    )
    const jobsOf = (client: string) =>
      specs.filter((spec) => spec.clients === undefined || spec.clients.includes(client))
    if (options.oneProcessPerClient === true) {
      for (const client of options.clients) {
        const mine = jobsOf(client)
        const out = await runChild(
          client,
          mine.map((spec) => ({ scenario: spec.scenario, params: { ...spec.params, origin: server.origin } }))
        )
        mine.forEach((spec, i) => ((results[spec.id] ??= {})[client] = summarize(out[i]!)))
        log(`${client}: done`)
      }
    } else {
      for (const spec of specs) {
        for (const client of options.clients) {
          if (spec.clients !== undefined && !spec.clients.includes(client)) continue
          const started = Date.now()
          const [samples] = await runChild(client, [{
            scenario: spec.scenario,
            params: { ...spec.params, origin: server.origin }
          }])
          ;(results[spec.id] ??= {})[client] = summarize(samples!)
          log(`${spec.id} ${client}: ${JSON.stringify(results[spec.id]![client])} (${Date.now() - started} ms)`)
        }
      }
    }
  } finally {
    server.process.kill("SIGTERM")
  }
  return results
}

// ---------------------------------------------------------------------------------------------------------
// the report
// ---------------------------------------------------------------------------------------------------------

interface Column {
  readonly title: string
  readonly scenario: string
  readonly metric: string
  /** Whether more is better (throughput) or less (time, memory). */
  readonly higherIsBetter: boolean
  readonly digits: number
  /** Print the ratio to raw fetch. */
  readonly ratio: boolean
}

const columns: ReadonlyArray<Column> = [
  {
    title: "sequential µs/req",
    scenario: "sequential",
    metric: "usPerRequest",
    higherIsBetter: false,
    digits: 0,
    ratio: true
  },
  {
    title: "sequential CPU µs/req",
    scenario: "sequential",
    metric: "cpuUsPerRequest",
    higherIsBetter: false,
    digits: 0,
    ratio: false
  },
  {
    title: "c=32 req/s",
    scenario: "concurrent",
    metric: "requestsPerSecond",
    higherIsBetter: true,
    digits: 0,
    ratio: true
  },
  {
    title: "100k stream, events, tok/s",
    scenario: "stream-events",
    metric: "tokensPerSecond",
    higherIsBetter: true,
    digits: 0,
    ratio: true
  },
  {
    title: "100k stream, 16 KiB writes, tok/s",
    scenario: "stream-coalesced",
    metric: "tokensPerSecond",
    higherIsBetter: true,
    digits: 0,
    ratio: true
  },
  {
    title: "first token ms",
    scenario: "stream-events",
    metric: "firstTokenMs",
    higherIsBetter: false,
    digits: 1,
    ratio: false
  },
  {
    title: "held while streaming MiB",
    scenario: "stream-events",
    metric: "heldPeakMiB",
    higherIsBetter: false,
    digits: 1,
    ratio: false
  },
  {
    title: "500×64 streams c=16, streams/s",
    scenario: "short-streams",
    metric: "streamsPerSecond",
    higherIsBetter: true,
    digits: 0,
    ratio: true
  },
  {
    title: "500×64 CPU µs/stream",
    scenario: "short-streams",
    metric: "cpuUsPerStream",
    higherIsBetter: false,
    digits: 0,
    ratio: false
  },
  {
    title: "1M stream heap peak Δ MiB",
    scenario: "long-stream",
    metric: "heapPeakMiB",
    higherIsBetter: false,
    digits: 1,
    ratio: false
  },
  {
    title: "1M stream arrayBuffers peak Δ MiB",
    scenario: "long-stream",
    metric: "arrayBuffersPeakMiB",
    higherIsBetter: false,
    digits: 1,
    ratio: false
  }
]

const valueOf = (results: Results, scenario: string, client: string, metric: string): number | undefined =>
  results[scenario]?.[client]?.[metric]

const format = (value: number, digits: number) =>
  value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })

/** The Markdown table of medians, with ratios to raw `fetch`. */
export const table = (results: Results, clients: ReadonlyArray<string>): string => {
  const header = `| client | ${columns.map((c) => c.title).join(" | ")} |`
  const rule = `|${" --- |".repeat(columns.length + 1)}`
  const rows = clients.map((client) => {
    const cells = columns.map((column) => {
      const value = valueOf(results, column.scenario, client, column.metric)
      if (value === undefined) return "—"
      const baseline = valueOf(results, column.scenario, "fetch", column.metric)
      const garbled = (results[column.scenario]?.[client]?.garbled ?? 0) > 0 ? " †" : ""
      const ratio = column.ratio && baseline !== undefined && baseline > 0 ? ` (${(value / baseline).toFixed(2)}×)` : ""
      return `${format(value, column.digits)}${ratio}${garbled}`
    })
    return `| ${clientLabels[client] ?? client} | ${cells.join(" | ")} |`
  })
  return [header, rule, ...rows].join("\n")
}

/** Each transport: the SDK over it, and the Effect floor over the same transport. */
const transports = [
  { studio: "studio-fetch", floor: "effect-fetch" },
  { studio: "studio-undici", floor: "effect-undici" },
  // the SDK's own transport, against the best floor the platform gives
  { studio: "studio-sdk-undici", floor: "effect-undici" }
] as const

export interface Verdict {
  readonly target: string
  readonly met: boolean | undefined
  readonly detail: string
}

/** Each target of the SDK, judged on its best transport, with the numbers it is judged on. */
export const targets = (results: Results): Array<Verdict> => {
  const out: Array<Verdict> = []
  const value = (scenario: string, client: string, metric: string) => valueOf(results, scenario, client, metric)
  const show = (x: number | undefined, digits = 0) => x === undefined ? "—" : format(x, digits)
  /** The transport on which the SDK does best in a scenario. */
  const bestTransport = (scenario: string, metric: string, higher: boolean) => {
    let best: (typeof transports)[number] | undefined
    for (const transport of transports) {
      const mine = value(scenario, transport.studio, metric)
      const current = best === undefined ? undefined : value(scenario, best.studio, metric)
      if (mine !== undefined && (current === undefined || (higher ? mine > current : mine < current))) {
        best = transport
      }
    }
    return best
  }
  const peersOf = (scenario: string, metric: string) =>
    ["ai21", "openai"].map((peer) => ({ peer, value: value(scenario, peer, metric) }))
  const ahead = (ours: number, others: ReadonlyArray<number | undefined>, higher: boolean) =>
    others.every((other) => other === undefined || (higher ? ours > other : ours < other))

  const perRequest = (scenario: string, metric: string, higher: boolean, title: string) => {
    const transport = bestTransport(scenario, metric, higher)
    if (transport === undefined) return
    const ours = value(scenario, transport.studio, metric)!
    const floor = value(scenario, transport.floor, metric)
    const peers = peersOf(scenario, metric)
    const cost = floor === undefined ? undefined : higher ? floor / ours : ours / floor
    out.push({
      target: `${title}: at most 1.2× the Effect floor's cost, ahead of \`ai21\` and \`openai\``,
      met: cost !== undefined && cost <= 1.2 && ahead(ours, peers.map((p) => p.value), higher),
      detail: `${transport.studio} ${show(ours)}, ${transport.floor} ${show(floor)}: cost ${
        cost === undefined ? "—" : cost.toFixed(2)
      }× the floor; ${peers.map((p) => `${p.peer} ${show(p.value)}`).join(", ")}`
    })
  }
  perRequest("sequential", "usPerRequest", false, "sequential requests (µs/req)")
  perRequest("concurrent", "requestsPerSecond", true, "requests at c=32 (req/s)")

  {
    const transport = bestTransport("short-streams", "streamsPerSecond", true)
    if (transport !== undefined) {
      const ours = value("short-streams", transport.studio, "streamsPerSecond")!
      const fetch = value("short-streams", "fetch", "streamsPerSecond")
      const peers = peersOf("short-streams", "streamsPerSecond")
      out.push({
        target: "500 short streams at c=16: at least raw `fetch`'s streams/s, ahead of `ai21` and `openai`",
        met: fetch !== undefined && ours >= fetch && ahead(ours, peers.map((p) => p.value), true),
        detail: `${transport.studio} ${show(ours)}; fetch ${show(fetch)}, ${
          peers.map((p) => `${p.peer} ${show(p.value)}`).join(", ")
        }`
      })
    }
  }
  for (
    const [scenario, title] of [
      ["stream-events", "100k stream, one event per write"],
      ["stream-coalesced", "100k stream, 16 KiB writes"]
    ] as const
  ) {
    const transport = bestTransport(scenario, "tokensPerSecond", true)
    const fetch = value(scenario, "fetch", "tokensPerSecond")
    if (transport === undefined || fetch === undefined) continue
    const ours = value(scenario, transport.studio, "tokensPerSecond")!
    out.push({
      target: `${title}: at least 0.9× raw \`fetch\`'s tok/s`,
      met: ours >= 0.9 * fetch,
      detail: `${transport.studio} ${show(ours)} tok/s = ${(ours / fetch).toFixed(2)}× fetch (${show(fetch)})`
    })
  }
  for (const scenario of ["stream-events", "stream-coalesced"] as const) {
    const bridge = value(scenario, "studio-bridge", "tokensPerSecond")
    const fetch = value(scenario, "fetch", "tokensPerSecond")
    if (bridge === undefined || fetch === undefined) continue
    out.push({
      target: `outside Effect (\`Chat.toAsyncIterable\`), 100k stream, ${
        scenario === "stream-events" ? "one event per write" : "16 KiB writes"
      }: at least 0.8× raw \`fetch\`'s tok/s`,
      met: bridge >= 0.8 * fetch,
      detail: `studio-bridge ${show(bridge)} tok/s = ${(bridge / fetch).toFixed(2)}× fetch (${show(fetch)})`
    })
  }
  {
    const transport = bestTransport("stream-events", "firstTokenMs", false)
    const fetch = value("stream-events", "fetch", "firstTokenMs")
    if (transport !== undefined && fetch !== undefined) {
      const ours = value("stream-events", transport.studio, "firstTokenMs")!
      out.push({
        target: "time to first token: at most raw `fetch`'s + 0.5 ms",
        met: ours <= fetch + 0.5,
        detail: `${transport.studio} ${show(ours, 2)} ms; fetch ${show(fetch, 2)} ms`
      })
    }
  }
  {
    const sequentialTransport = bestTransport("sequential", "usPerRequest", false)
    const sequential = sequentialTransport === undefined
      ? undefined
      : value("sequential", sequentialTransport.studio, "usPerRequest")
    for (
      const [metric, what] of [
        ["chatValidationUs", "chat request (10 messages, tools, documents)"],
        ["runValidationUs", "run request (10 requirements, four tools)"]
      ] as const
    ) {
      const cost = value("validation", "studio-undici", metric)
      if (cost === undefined || sequential === undefined) continue
      out.push({
        target: `validation of a typical ${what}: under 2% of a sequential request`,
        met: cost < 0.02 * sequential,
        detail: `${show(cost, 1)} µs = ${((cost / sequential) * 100).toFixed(2)}% of ${show(sequential)} µs`
      })
    }
  }
  {
    const measured = transports.filter((t) => value("long-stream", t.studio, "heapPeakMiB") !== undefined)
    if (measured.length > 0) {
      const within = (t: (typeof transports)[number]) =>
        value("long-stream", t.studio, "heapPeakMiB")! <= 32 &&
        value("long-stream", t.studio, "arrayBuffersPeakMiB")! <= 16
      out.push({
        target: "1M-token stream: heap peak ≤ 32 MiB and array buffers ≤ 16 MiB above the start",
        met: measured.some(within),
        detail: measured.map((t) =>
          `${t.studio} ${show(value("long-stream", t.studio, "heapPeakMiB"), 1)} MiB heap, ${
            show(value("long-stream", t.studio, "arrayBuffersPeakMiB"), 1)
          } MiB array buffers`
        ).join("; ")
      })
    }
  }
  return out
}

export const report = (results: Results, clients: ReadonlyArray<string>): string => {
  const lines = [table(results, clients), ""]
  if (clients.some((client) => Object.values(results).some((r) => (r[client]?.garbled ?? 0) > 0))) {
    lines.push("† every token arrived, but some characters were corrupted (decoded as U+FFFD).", "")
  }
  lines.push("| target | verdict | numbers |", "| --- | --- | --- |")
  for (const t of targets(results)) {
    lines.push(`| ${t.target} | ${t.met === undefined ? "—" : t.met ? "met" : "**missed**"} | ${t.detail} |`)
  }
  return lines.join("\n")
}

const main = async () => {
  const scale = Number(process.env.BENCH_SCALE ?? "1")
  const reps = Number(process.env.BENCH_REPS ?? "5")
  const clients = process.env.BENCH_CLIENTS?.split(",") ?? [...allClients]
  const started = Date.now()
  console.log(
    `studio-effect benchmark: scale ${scale}, ${reps} repetitions; node ${process.version}, ${os.cpus().length}× ${
      os.cpus()[0]?.model ?? "cpu"
    }, ${os.platform()} ${os.release()}; ${new Date().toISOString()}`
  )
  const scenarios = process.env.BENCH_SCENARIOS?.split(",")
  const results = await runBench({ scale, reps, clients, scenarios, log: (line) => console.error(line) })
  if (process.env.BENCH_JSON !== undefined) writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2))
  console.log("")
  console.log(report(results, clients))
  console.log("")
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((error) => {
    console.error(error)
    process.exit(1)
  })
}
