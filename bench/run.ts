/**
 * `npm run bench`: the benchmark of both lines in one run. It measures the start-up of each line (the import
 * time of each entry and of the peer SDKs, and the command's `--version`), starts the loopback server in its
 * own process, runs every client in its own process per scenario (a warm-up, then several repetitions), and
 * prints a Markdown table of medians with ratios to raw `fetch`, then each line's targets with their verdicts.
 *
 * Every process runs on Node.js 24 (`scripts/node.mjs` fetches it if the machine lacks it); with
 * `BENCH_NODE=lowest`, each on the oldest Node.js its line supports (the Effect 3 line and the peers 20, the
 * Effect 4 line 22).
 *
 * Environment: `BENCH_SCALE` (default 1) scales every count, `BENCH_REPS` (default 5) the repetitions (and the
 * fresh processes of each start-up measure), `BENCH_CLIENTS` and `BENCH_SCENARIOS` (comma-separated) pick
 * clients and scenarios (`imports` and `command` are the start-up measures), `BENCH_NODE` the Node.js,
 * `BENCH_JSON` names a file for the raw results, `BENCH_PROFILE` a directory for a CPU profile of each client.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { nodeBinary, versionAtLeast } from "../scripts/node.mjs"
import type { Job, Params, Sample } from "./child.js"
import { median } from "./median.js"
import { commandTime, importTime } from "./startup.js"

const benchDir = path.dirname(fileURLToPath(import.meta.url))
const root = path.dirname(benchDir)

// ---------------------------------------------------------------------------------------------------------
// the lines and their clients
// ---------------------------------------------------------------------------------------------------------

/** Each line of the SDK: its package, and the oldest Node.js major it supports. */
export const lines = {
  effect3: {
    title: "Effect 3",
    dir: "packages/effect3",
    packageName: "studio-effect-effect3",
    lowestNode: 20
  },
  effect4: {
    title: "Effect 4",
    dir: "packages/effect4",
    packageName: "studio-effect",
    lowestNode: 22
  }
} as const

export type Line = keyof typeof lines

/** The oldest Node.js major the peer clients and the server run on with `BENCH_NODE=lowest`. */
const peersLowestNode = 20

/** The oldest Node.js major of the AI SDK's clients (`ai` 7 needs Node.js 22). */
const aiSdkLowestNode = 22

/** The Node.js major of every process by default. */
export const defaultNode = 24

export interface ClientSpec {
  readonly id: string
  readonly label: string
  /** The line whose `effect` and SDK the client imports; the peers import neither. */
  readonly line: Line | "peer" | "ai-sdk"
  /** The file that exports `client` (a `BenchClient`), from the repository's root. */
  readonly module: string
  /** The oldest Node.js major it runs on: its line's. */
  readonly lowestNode: number
}

const peer = (id: string, label: string, module: string): ClientSpec => ({
  id,
  label,
  line: "peer",
  module,
  lowestNode: peersLowestNode
})

const ofLine = (line: Line) => (id: string, label: string, module: string): ClientSpec => ({
  id,
  label,
  line,
  module,
  lowestNode: lines[line].lowestNode
})
/** A client of the AI SDK (`ai` 7): the Studio provider, and its peer within the AI SDK. */
const aiSdk = (id: string, label: string, module: string): ClientSpec => ({
  id,
  label,
  line: "ai-sdk",
  module,
  lowestNode: aiSdkLowestNode
})
const effect3 = ofLine("effect3")
const effect4 = ofLine("effect4")

/** Every client, the baseline (raw `fetch`) first. */
export const clients: ReadonlyArray<ClientSpec> = [
  peer("fetch", "raw `fetch` + hand parser", "bench/clients/fetch.ts"),
  peer("undici", "`undici` + `eventsource-parser`", "bench/clients/undici.ts"),
  peer("ai21", "`ai21` 1.1.0", "bench/clients/ai21.ts"),
  peer("openai", "`openai` 6.30.1", "bench/clients/openai.ts"),
  aiSdk("ai-sdk", "`studio-effect-ai-sdk` with `ai` 7 (`generateText`, `streamText`)", "bench/clients/ai-sdk.ts"),
  aiSdk(
    "ai-sdk-openai-compatible",
    "`@ai-sdk/openai-compatible` 3.0.92 with `ai` 7 (`generateText`, `streamText`)",
    "bench/clients/ai-sdk-openai-compatible.ts"
  ),
  effect3(
    "effect3-floor-fetch",
    "Effect 3 floor, `FetchHttpClient`",
    "packages/effect3/bench/clients/effect-fetch.ts"
  ),
  effect3(
    "effect3-floor-undici",
    "Effect 3 floor, `NodeHttpClient.layerUndici`",
    "packages/effect3/bench/clients/effect-undici.ts"
  ),
  effect3(
    "studio3-fetch",
    "studio-effect (Effect 3), `FetchHttpClient`",
    "packages/effect3/bench/clients/studio-fetch.ts"
  ),
  effect3(
    "studio3-undici",
    "studio-effect (Effect 3), `NodeHttpClient.layerUndici`",
    "packages/effect3/bench/clients/studio-undici.ts"
  ),
  effect3(
    "studio3-sdk-undici",
    "studio-effect (Effect 3), `UndiciHttpClient` (`studio-effect/undici`)",
    "packages/effect3/bench/clients/studio-sdk-undici.ts"
  ),
  effect3(
    "studio3-bridge",
    "studio-effect (Effect 3) outside Effect (`Chat.toAsyncIterable`, `UndiciHttpClient`)",
    "packages/effect3/bench/clients/studio-bridge.ts"
  ),
  effect4(
    "effect4-floor-fetch",
    "Effect 4 floor, `FetchHttpClient`",
    "packages/effect4/bench/clients/effect-fetch.ts"
  ),
  effect4(
    "effect4-floor-undici",
    "Effect 4 floor, `NodeHttpClient.layerUndici`",
    "packages/effect4/bench/clients/effect-undici.ts"
  ),
  effect4(
    "studio4-fetch",
    "studio-effect (Effect 4), `FetchHttpClient`",
    "packages/effect4/bench/clients/studio-fetch.ts"
  ),
  effect4(
    "studio4-undici",
    "studio-effect (Effect 4), `NodeHttpClient.layerUndici`",
    "packages/effect4/bench/clients/studio-undici.ts"
  ),
  effect4(
    "studio4-sdk-undici",
    "studio-effect (Effect 4), `UndiciHttpClient` (`studio-effect/undici`)",
    "packages/effect4/bench/clients/studio-sdk-undici.ts"
  ),
  effect4(
    "studio4-bridge",
    "studio-effect (Effect 4) outside Effect (`Chat.toAsyncIterable`, `UndiciHttpClient`)",
    "packages/effect4/bench/clients/studio-bridge.ts"
  )
]

/** Every client's id, in the registry's order. */
export const allClients: ReadonlyArray<string> = clients.map((client) => client.id)

/** The ids of the clients of a line (or of the peers, or of the AI SDK). */
export const clientsOf = (line: Line | "peer" | "ai-sdk"): Array<string> =>
  clients.filter((client) => client.line === line).map((client) => client.id)

const clientSpec = (id: string): ClientSpec => {
  const spec = clients.find((client) => client.id === id)
  if (spec === undefined) throw new Error(`no client ${id}; the clients: ${allClients.join(", ")}`)
  return spec
}

/** Which Node.js each process runs on: Node 24, each line's oldest, or one binary for all. */
export type NodeChoice = "default" | "lowest" | { readonly binary: string }

/** The Node.js binary of a process whose line supports `lowest` and later. */
const nodeFor = (choice: NodeChoice, lowest: number): string =>
  typeof choice === "object" ? choice.binary : nodeBinary(choice === "lowest" ? lowest : defaultNode)

const versions = new Map<string, string>()
/** The version of a Node.js binary (`24.21.0`). */
const versionOf = (binary: string): string => {
  let version = versions.get(binary)
  if (version === undefined) {
    version = execFileSync(binary, ["-p", "process.versions.node"], { encoding: "utf8" }).trim()
    versions.set(binary, version)
  }
  return version
}

/**
 * How a process on `binary` runs the TypeScript sources: Node's own type transform on Node.js 22.18 and
 * later (see `typescript.mjs`), `tsx` before.
 */
const typescriptFlags = (binary: string): ReadonlyArray<string> =>
  versionAtLeast(versionOf(binary), "22.18.0")
    ? [
      "--experimental-transform-types",
      "--disable-warning=ExperimentalWarning",
      "--import",
      pathToFileURL(path.join(benchDir, "typescript.mjs")).href
    ]
    : ["--import", "tsx"]

// ---------------------------------------------------------------------------------------------------------
// the scenarios
// ---------------------------------------------------------------------------------------------------------

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
    // the first read of a stream of 2,000 tokens is as full (64 KiB) as a longer stream's
    {
      id: "first-token",
      scenario: "first-token",
      params: { ...base, count: n(40, 3), tokens: 2000, warmUp: 3 }
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
      clients: ["studio3-undici", "studio4-undici"]
    }
  ]
}

/** The start-up measures, picked by these ids in `BENCH_SCENARIOS` like the scenarios. */
export const startupMeasures = ["imports", "command"] as const

/**
 * An entry whose import time is measured, as an application writes it. A line's entry is measured when the
 * run has a client of that line; a peer's (no line) when the run has the peer client of the same id.
 */
export interface ImportEntry {
  readonly id: string
  readonly label: string
  readonly line: Line | undefined
  /** What the application imports (all at once when several), resolved from `from`. */
  readonly specifier: string | ReadonlyArray<string>
  /** The folder the imports resolve from, relative to the repository's root (default: the root). */
  readonly from?: string
  /** The oldest Node.js major it loads on, when above the peers' (measured there alone). */
  readonly lowestNode?: number
}

const lineEntries = (line: Line): Array<ImportEntry> =>
  ["", "/reference", "/ai"].map((subpath) => ({
    id: `${line}:studio-effect${subpath}`,
    label: `\`import "studio-effect${subpath}"\` (${lines[line].title})`,
    line,
    specifier: lines[line].packageName + subpath
  }))

/**
 * The Effect 4 modules `import "studio-effect"` needs (`Effect`, `Schema`, `Stream`, `Schedule`, `Layer`, the
 * HTTP client), imported by themselves: the floor the SDK's import time is judged against.
 */
export const effect4Modules = [
  "effect/Effect",
  "effect/Schema",
  "effect/Stream",
  "effect/Schedule",
  "effect/Layer",
  "effect/http/HttpClient"
]

/** Every entry whose import time is measured. */
export const importEntries: ReadonlyArray<ImportEntry> = [
  ...lineEntries("effect3"),
  ...lineEntries("effect4"),
  {
    id: "effect4:effect-modules",
    label: "the Effect 4 modules the SDK needs (Effect, Schema, Stream, Schedule, Layer, HttpClient)",
    line: "effect4",
    specifier: effect4Modules,
    from: lines.effect4.dir
  },
  { id: "ai21", label: "`import \"ai21\"`", line: undefined, specifier: "ai21" },
  { id: "openai", label: "`import \"openai\"`", line: undefined, specifier: "openai" },
  {
    id: "ai-sdk",
    label: "`import \"studio-effect-ai-sdk\"` (built: `npm run build -w studio-effect-ai-sdk`)",
    line: undefined,
    specifier: "studio-effect-ai-sdk",
    lowestNode: aiSdkLowestNode
  },
  {
    id: "ai-sdk-openai-compatible",
    label: "`import \"@ai-sdk/openai-compatible\"`",
    line: undefined,
    specifier: "@ai-sdk/openai-compatible",
    lowestNode: aiSdkLowestNode
  }
]

// ---------------------------------------------------------------------------------------------------------
// running
// ---------------------------------------------------------------------------------------------------------

const startServer = (node: string): Promise<{ origin: string; process: ChildProcess }> =>
  new Promise((resolve, reject) => {
    const child = spawn(node, [
      "--conditions=@studio-effect/source",
      ...typescriptFlags(node),
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

/**
 * With `BENCH_PROFILE=<dir>`, each client's process writes a `.cpuprofile` there (`node --cpu-prof`), named
 * after the client, to read with `bench/profile-summary.ts`.
 */
const profileFlags = (client: ClientSpec): ReadonlyArray<string> => {
  const dir = process.env.BENCH_PROFILE
  return dir === undefined || dir === ""
    ? []
    : ["--cpu-prof", "--cpu-prof-dir", path.resolve(dir), "--cpu-prof-name", `${client.id}.${Date.now()}.cpuprofile`]
}

const runChild = (
  node: string,
  client: ClientSpec,
  jobs: ReadonlyArray<Job>
): Promise<{ readonly node: string; readonly samples: Array<Array<Sample>> }> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      node,
      [
        "--expose-gc",
        ...profileFlags(client),
        "--conditions=@studio-effect/source",
        ...typescriptFlags(node),
        path.join(benchDir, "child.ts"),
        path.join(root, client.module),
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
        if (parsed.error !== undefined) reject(new Error(`${client.id}: ${parsed.error}`))
        else resolve({ node: parsed.node, samples: parsed.results })
      } catch {
        reject(new Error(`${client.id}: no result (${out.slice(-500)})`))
      }
    })
  })

/** Everything a run measured. */
export interface Results {
  /** Medians of every measurement, by scenario id, then client id. */
  readonly scenarios: Record<string, Record<string, Sample>>
  /** The Node.js version each client ran on. */
  readonly nodes: Record<string, string>
  /** Median import time in ms, by entry id, then Node.js version. */
  readonly imports: Record<string, Record<string, number>>
  /** Median ms of `studio-effect --version` from spawn to exit, by line, then Node.js version. */
  readonly commands: Record<string, Record<string, number>>
  /** What was not measured, and why. */
  readonly notMeasured: Array<string>
}

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
  /** How many times each scenario runs its clients in turn, each time in a new process (1 when absent). */
  readonly rounds?: number | undefined
  readonly clients: ReadonlyArray<string>
  /** The Node.js of every process: `"default"` (24) unless given. */
  readonly node?: NodeChoice | undefined
  /** Run all scenarios of a client in one process (quicker start; for the smoke tests). */
  readonly oneProcessPerClient?: boolean
  /** Only these scenarios and start-up measures (by id); all when absent. */
  readonly scenarios?: ReadonlyArray<string> | undefined
  readonly log?: (line: string) => void
}

/** The start-up measures of the lines and peers the run's clients belong to. */
const measureStartup = async (options: RunOptions, results: Results, log: (line: string) => void) => {
  const choice = options.node ?? "default"
  const wanted = (measure: string) => options.scenarios === undefined || options.scenarios.includes(measure)
  // rounds add to the processes of each start-up measure (the imports' take turns already)
  const runs = Math.max(1, options.reps) * Math.max(1, options.rounds ?? 1)
  const specs = options.clients.map(clientSpec)
  const builtLines = (Object.keys(lines) as Array<Line>).filter((line) => {
    if (!specs.some((spec) => spec.line === line)) return false
    const { dir, packageName } = lines[line]
    if (existsSync(path.join(root, dir, "dist", "index.js"))) return true
    results.notMeasured.push(
      `${lines[line].title} line: ${dir}/dist is missing, so its imports and command were not measured ` +
        `(build it: \`npm run build -w ${packageName}\`)`
    )
    return false
  })
  const lineNode = (line: Line) => nodeFor(choice, lines[line].lowestNode)
  const measure = async (
    record: Record<string, Record<string, number>>,
    id: string,
    node: string,
    time: () => Promise<number>,
    warmUp = 0
  ) => {
    try {
      for (let i = 0; i < warmUp; i++) await time()
      const samples: Array<number> = []
      for (let i = 0; i < runs; i++) samples.push(await time())
      ;(record[id] ??= {})[versionOf(node)] = median(samples)
      log(`${id} on Node.js ${versionOf(node)}: ${median(samples).toFixed(1)} ms`)
    } catch (error) {
      results.notMeasured.push(`${id} on Node.js ${versionOf(node)}: ${(error as Error).message}`)
    }
  }
  if (wanted("imports")) {
    // the peers' entries on every Node.js a line's entries run on, so that each line compares on its own
    const peerNodes = [
      ...new Set([nodeFor(choice, peersLowestNode), ...builtLines.map(lineNode)])
    ]
    const measured = importEntries.filter((entry) =>
      entry.line === undefined ? options.clients.includes(entry.id) : builtLines.includes(entry.line)
    ).flatMap((entry) =>
      (entry.line !== undefined
        ? [lineNode(entry.line)]
        : entry.lowestNode !== undefined
        ? [nodeFor(choice, entry.lowestNode)]
        : peerNodes).map((node) => ({ entry, node, samples: [] as Array<number>, failed: undefined as unknown }))
    )
    // one sample of each entry in turn, so that a drift of the machine's speed falls on all of them alike
    for (let i = 0; i < runs; i++) {
      for (const task of measured) {
        if (task.failed !== undefined) continue
        try {
          task.samples.push(await importTime(task.node, task.entry.specifier, path.join(root, task.entry.from ?? "")))
        } catch (error) {
          task.failed = error
        }
      }
    }
    for (const { entry, failed, node, samples } of measured) {
      if (failed !== undefined) {
        results.notMeasured.push(`${entry.id} on Node.js ${versionOf(node)}: ${(failed as Error).message}`)
        continue
      }
      ;(results.imports[entry.id] ??= {})[versionOf(node)] = median(samples)
      log(`${entry.id} on Node.js ${versionOf(node)}: ${median(samples).toFixed(1)} ms`)
    }
  }
  if (wanted("command")) {
    for (const line of builtLines) {
      const bin = path.join(root, lines[line].dir, "bin", "studio-effect.mjs")
      // one start not counted: the command keeps its compiled modules in Node's compile cache, so the starts
      // measured are those after the first, as a user's are
      await measure(
        results.commands,
        line,
        lineNode(line),
        () => commandTime(lineNode(line), [bin, "--version"], root),
        1
      )
    }
  }
}

/** Runs the benchmark and returns the medians. */
export const runBench = async (options: RunOptions): Promise<Results> => {
  const log = options.log ?? (() => {})
  const choice = options.node ?? "default"
  const results: Results = { scenarios: {}, nodes: {}, imports: {}, commands: {}, notMeasured: [] }
  await measureStartup(options, results, log)
  const specs = scenarioSpecs(options.scale, options.reps).filter((spec) =>
    options.scenarios === undefined || options.scenarios.includes(spec.id)
  )
  if (specs.length === 0) return results
  const server = await startServer(nodeFor(choice, peersLowestNode))
  try {
    const jobsOf = (client: string) =>
      specs.filter((spec) => spec.clients === undefined || spec.clients.includes(client))
    /** The samples of each of `mine`'s scenarios, run by `client` in one process. */
    const sample = async (client: string, mine: ReadonlyArray<ScenarioSpec>) => {
      const spec = clientSpec(client)
      const out = await runChild(
        nodeFor(choice, spec.lowestNode),
        spec,
        mine.map((scenario) => ({ scenario: scenario.scenario, params: { ...scenario.params, origin: server.origin } }))
      )
      results.nodes[client] = out.node
      return out.samples
    }
    if (options.oneProcessPerClient === true) {
      for (const client of options.clients) {
        const mine = jobsOf(client)
        const samples = await sample(client, mine)
        mine.forEach((scenario, i) => ((results.scenarios[scenario.id] ??= {})[client] = summarize(samples[i]!)))
        log(`${client}: done`)
      }
    } else {
      // Each round runs every client of the scenario once, one after another, so that the machine's drift
      // over the scenario falls on all of them alike; a client's figure is the median of all its rounds'
      // repetitions.
      const rounds = Math.max(1, options.rounds ?? 1)
      for (const spec of specs) {
        const mine = options.clients.filter((client) => spec.clients === undefined || spec.clients.includes(client))
        const samples: Record<string, Array<Sample>> = {}
        for (let round = 1; round <= rounds; round++) {
          for (const client of mine) {
            const started = Date.now()
            const [these] = await sample(client, [spec])
            samples[client] = [...(samples[client] ?? []), ...these!]
            const which = rounds === 1 ? "" : ` (round ${round} of ${rounds})`
            log(`${spec.id} ${client}${which}: ${JSON.stringify(summarize(these!))} (${Date.now() - started} ms)`)
          }
        }
        for (const client of mine) (results.scenarios[spec.id] ??= {})[client] = summarize(samples[client]!)
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
  readonly digits: number
  /** Print the ratio to raw fetch. */
  readonly ratio: boolean
}

const columns: ReadonlyArray<Column> = [
  { title: "sequential µs/req", scenario: "sequential", metric: "usPerRequest", digits: 0, ratio: true },
  { title: "sequential CPU µs/req", scenario: "sequential", metric: "cpuUsPerRequest", digits: 0, ratio: false },
  { title: "c=32 req/s", scenario: "concurrent", metric: "requestsPerSecond", digits: 0, ratio: true },
  {
    title: "100k stream, events, tok/s",
    scenario: "stream-events",
    metric: "tokensPerSecond",
    digits: 0,
    ratio: true
  },
  {
    title: "100k stream, 16 KiB writes, tok/s",
    scenario: "stream-coalesced",
    metric: "tokensPerSecond",
    digits: 0,
    ratio: true
  },
  { title: "first token ms", scenario: "first-token", metric: "firstTokenMs", digits: 1, ratio: false },
  { title: "held while streaming MiB", scenario: "stream-events", metric: "heldPeakMiB", digits: 1, ratio: false },
  {
    title: "500×64 streams c=16, streams/s",
    scenario: "short-streams",
    metric: "streamsPerSecond",
    digits: 0,
    ratio: true
  },
  { title: "500×64 CPU µs/stream", scenario: "short-streams", metric: "cpuUsPerStream", digits: 0, ratio: false },
  { title: "1M stream heap peak Δ MiB", scenario: "long-stream", metric: "heapPeakMiB", digits: 1, ratio: false },
  {
    title: "1M stream arrayBuffers peak Δ MiB",
    scenario: "long-stream",
    metric: "arrayBuffersPeakMiB",
    digits: 1,
    ratio: false
  }
]

const valueOf = (results: Results, scenario: string, client: string, metric: string): number | undefined =>
  results.scenarios[scenario]?.[client]?.[metric]

const format = (value: number, digits: number) =>
  value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })

const labelOf = (client: string) => clients.find((spec) => spec.id === client)?.label ?? client

/** The Markdown table of medians, with ratios to raw `fetch` and the Node.js of each client. */
export const table = (results: Results, ids: ReadonlyArray<string>): string => {
  const header = `| client | Node.js | ${columns.map((c) => c.title).join(" | ")} |`
  const rule = `|${" --- |".repeat(columns.length + 2)}`
  const rows = ids.filter((client) => results.nodes[client] !== undefined).map((client) => {
    const cells = columns.map((column) => {
      const value = valueOf(results, column.scenario, client, column.metric)
      if (value === undefined) return "—"
      const baseline = valueOf(results, column.scenario, "fetch", column.metric)
      const garbled = (results.scenarios[column.scenario]?.[client]?.garbled ?? 0) > 0 ? " †" : ""
      const ratio = column.ratio && baseline !== undefined && baseline > 0 ? ` (${(value / baseline).toFixed(2)}×)` : ""
      return `${format(value, column.digits)}${ratio}${garbled}`
    })
    return `| ${labelOf(client)} | ${results.nodes[client]} | ${cells.join(" | ")} |`
  })
  return [header, rule, ...rows].join("\n")
}

/** The start-up measures as a Markdown table, or nothing when none ran. */
export const startupTable = (results: Results): string | undefined => {
  const rows: Array<string> = []
  for (const entry of importEntries) {
    for (const [node, ms] of Object.entries(results.imports[entry.id] ?? {})) {
      rows.push(`| ${entry.label} | ${node} | ${format(ms, 1)} |`)
    }
  }
  for (const line of Object.keys(lines) as Array<Line>) {
    for (const [node, ms] of Object.entries(results.commands[line] ?? {})) {
      rows.push(`| \`studio-effect --version\` (${lines[line].title}), spawn to exit | ${node} | ${format(ms, 1)} |`)
    }
  }
  if (rows.length === 0) return undefined
  return ["| start-up, median of fresh processes | Node.js | ms |", "| --- | --- | --- |", ...rows].join("\n")
}

/** What a line's SDK is judged on, and the bounds of its targets. */
interface LineTargets {
  /** Each transport: the SDK over it, and the line's Effect floor over the same transport. */
  readonly transports: ReadonlyArray<{ readonly studio: string; readonly floor: string }>
  /** The SDK consumed outside Effect (`Chat.toAsyncIterable`). */
  readonly bridge: string
  /** The client whose validation is measured. */
  readonly validation: string
  /** The most the SDK's requests may cost, as a multiple of the floor's. */
  readonly floorCost: number
  /** How far ahead of `ai21` the SDK must be: its sequential cost and its short streams' rate (1: ahead). */
  readonly ai21Lead: { readonly sequential: number; readonly shortStreams: number }
  /** Whether the long streams must also be ahead of `ai21` and `openai`. */
  readonly streamsAheadOfPeers: boolean
  /** The least share of raw `fetch`'s tok/s on the 100k stream, in Effect and outside it. */
  readonly streamShare: number
  readonly bridgeShare: number
  /** How much later than raw `fetch`'s the first token may arrive, in ms. */
  readonly firstTokenSlackMs: number
  /** The most `import "studio-effect"` may take, as a multiple of the import of the Effect modules it needs. */
  readonly importShareOfEffect?: number
  /** The most `studio-effect --version` may take, spawn to exit, in ms. */
  readonly commandMs?: number
}

/**
 * The targets of each line, each judged on the line's best transport in one run: the Effect 3 line's, and
 * the Effect 4 line's (near the transport's limit: within 5% of its Effect floor, ahead of every peer).
 */
export const lineTargets: Record<Line, LineTargets> = {
  effect3: {
    transports: [
      { studio: "studio3-fetch", floor: "effect3-floor-fetch" },
      { studio: "studio3-undici", floor: "effect3-floor-undici" },
      // the SDK's own transport, against the best floor the platform gives
      { studio: "studio3-sdk-undici", floor: "effect3-floor-undici" }
    ],
    bridge: "studio3-bridge",
    validation: "studio3-undici",
    floorCost: 1.2,
    ai21Lead: { sequential: 1, shortStreams: 1 },
    streamsAheadOfPeers: false,
    streamShare: 0.9,
    bridgeShare: 0.8,
    firstTokenSlackMs: 0.5
  },
  effect4: {
    transports: [
      { studio: "studio4-fetch", floor: "effect4-floor-fetch" },
      { studio: "studio4-undici", floor: "effect4-floor-undici" },
      // the SDK's own transport, against the best floor the platform gives
      { studio: "studio4-sdk-undici", floor: "effect4-floor-undici" }
    ],
    bridge: "studio4-bridge",
    validation: "studio4-undici",
    floorCost: 1.05,
    ai21Lead: { sequential: 1.1, shortStreams: 1.5 },
    streamsAheadOfPeers: true,
    streamShare: 0.95,
    bridgeShare: 0.9,
    firstTokenSlackMs: 0.5,
    importShareOfEffect: 1.1,
    commandMs: 300
  }
}

export interface Verdict {
  readonly line: Line
  readonly target: string
  readonly met: boolean | undefined
  readonly detail: string
}

/** Each target of a line's SDK, judged on its best transport, with the numbers it is judged on. */
const targetsOf = (results: Results, line: Line): Array<Verdict> => {
  const spec = lineTargets[line]
  const floorName = `the ${lines[line].title} floor`
  const out: Array<Verdict> = []
  const push = (verdict: Omit<Verdict, "line">) => out.push({ line, ...verdict })
  const value = (scenario: string, client: string, metric: string) => valueOf(results, scenario, client, metric)
  const show = (x: number | undefined, digits = 0) => x === undefined ? "—" : format(x, digits)
  const times = (x: number) => `${x}×`
  type Transport = (typeof spec.transports)[number]
  /** The transport on which the SDK does best in a scenario. */
  const bestTransport = (scenario: string, metric: string, higher: boolean) => {
    let best: Transport | undefined
    for (const transport of spec.transports) {
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

  /** `ours` ahead of `ai21` by `lead` (1.1: 10%), in a metric where higher is better or not. */
  const leads = (ours: number, ai21: number | undefined, lead: number, higher: boolean) =>
    ai21 === undefined || (higher ? ours >= lead * ai21 && ours > ai21 : ours * lead <= ai21 && ours < ai21)
  const leadText = (lead: number) => lead > 1 ? ` (\`ai21\` by ${Math.round((lead - 1) * 100)}%)` : ""
  const perRequest = (scenario: string, metric: string, higher: boolean, title: string, lead: number) => {
    const transport = bestTransport(scenario, metric, higher)
    if (transport === undefined) return
    const ours = value(scenario, transport.studio, metric)!
    const floor = value(scenario, transport.floor, metric)
    const peers = peersOf(scenario, metric)
    const cost = floor === undefined ? undefined : higher ? floor / ours : ours / floor
    push({
      target: `${title}: at most ${times(spec.floorCost)} ${floorName}'s cost, ahead of \`ai21\` and \`openai\`${
        leadText(lead)
      }`,
      met: cost !== undefined && cost <= spec.floorCost && ahead(ours, peers.map((p) => p.value), higher) &&
        leads(ours, peers[0]!.value, lead, higher),
      detail: `${transport.studio} ${show(ours)}, ${transport.floor} ${show(floor)}: cost ${
        cost === undefined ? "—" : cost.toFixed(2)
      }× the floor; ${peers.map((p) => `${p.peer} ${show(p.value)}`).join(", ")}`
    })
  }
  perRequest("sequential", "usPerRequest", false, "sequential requests (µs/req)", spec.ai21Lead.sequential)
  perRequest("concurrent", "requestsPerSecond", true, "requests at c=32 (req/s)", 1)

  {
    const transport = bestTransport("short-streams", "streamsPerSecond", true)
    if (transport !== undefined) {
      const ours = value("short-streams", transport.studio, "streamsPerSecond")!
      const fetch = value("short-streams", "fetch", "streamsPerSecond")
      const peers = peersOf("short-streams", "streamsPerSecond")
      push({
        target: `short streams at c=16: at least raw \`fetch\`'s streams/s, ahead of \`ai21\` and \`openai\`${
          leadText(spec.ai21Lead.shortStreams)
        }`,
        met: fetch !== undefined && ours >= fetch && ahead(ours, peers.map((p) => p.value), true) &&
          leads(ours, peers[0]!.value, spec.ai21Lead.shortStreams, true),
        detail: `${transport.studio} ${show(ours)}; fetch ${show(fetch)}, ${
          peers.map((p) => `${p.peer} ${show(p.value)}`).join(", ")
        }`
      })
    }
  }
  const writeModes = [
    ["stream-events", "one event per write"],
    ["stream-coalesced", "16 KiB writes"]
  ] as const
  for (const [scenario, title] of writeModes) {
    const transport = bestTransport(scenario, "tokensPerSecond", true)
    const fetch = value(scenario, "fetch", "tokensPerSecond")
    if (transport === undefined || fetch === undefined) continue
    const ours = value(scenario, transport.studio, "tokensPerSecond")!
    const peers = peersOf(scenario, "tokensPerSecond")
    push({
      target: `long stream, ${title}: at least ${times(spec.streamShare)} raw \`fetch\`'s tok/s${
        spec.streamsAheadOfPeers ? ", ahead of `ai21` and `openai`" : ""
      }`,
      met: ours >= spec.streamShare * fetch &&
        (!spec.streamsAheadOfPeers || ahead(ours, peers.map((p) => p.value), true)),
      detail: `${transport.studio} ${show(ours)} tok/s = ${(ours / fetch).toFixed(2)}× fetch (${show(fetch)})${
        spec.streamsAheadOfPeers ? `; ${peers.map((p) => `${p.peer} ${show(p.value)}`).join(", ")}` : ""
      }`
    })
  }
  for (const [scenario, title] of writeModes) {
    const bridge = value(scenario, spec.bridge, "tokensPerSecond")
    const fetch = value(scenario, "fetch", "tokensPerSecond")
    if (bridge === undefined || fetch === undefined) continue
    push({
      target: `outside Effect (\`Chat.toAsyncIterable\`), long stream, ${title}: at least ${
        times(spec.bridgeShare)
      } raw \`fetch\`'s tok/s`,
      met: bridge >= spec.bridgeShare * fetch,
      detail: `${spec.bridge} ${show(bridge)} tok/s = ${(bridge / fetch).toFixed(2)}× fetch (${show(fetch)})`
    })
  }
  {
    const transport = bestTransport("first-token", "firstTokenMs", false)
    const fetch = value("first-token", "fetch", "firstTokenMs")
    if (transport !== undefined && fetch !== undefined) {
      const ours = value("first-token", transport.studio, "firstTokenMs")!
      push({
        target: `time to first token: at most raw \`fetch\`'s + ${spec.firstTokenSlackMs} ms`,
        met: ours <= fetch + spec.firstTokenSlackMs,
        detail: `${transport.studio} ${show(ours, 2)} ms; fetch ${show(fetch, 2)} ms`
      })
    }
  }
  {
    const sequentialTransport = bestTransport("sequential", "usPerRequest", false)
    const sequential = sequentialTransport === undefined
      ? undefined
      : value("sequential", sequentialTransport.studio, "usPerRequest")
    const validations = [
      ["chatValidationUs", "chat request (10 messages, tools, documents)"],
      ["runValidationUs", "run request (10 requirements, four tools)"]
    ] as const
    for (const [metric, what] of validations) {
      const cost = value("validation", spec.validation, metric)
      if (cost === undefined || sequential === undefined) continue
      push({
        target: `validation of a typical ${what}: under 2% of a sequential request`,
        met: cost < 0.02 * sequential,
        detail: `${show(cost, 1)} µs = ${((cost / sequential) * 100).toFixed(2)}% of ${show(sequential)} µs`
      })
    }
  }
  {
    const measured = spec.transports.filter((t) => value("long-stream", t.studio, "heapPeakMiB") !== undefined)
    if (measured.length > 0) {
      const within = (t: Transport) =>
        value("long-stream", t.studio, "heapPeakMiB")! <= 32 &&
        value("long-stream", t.studio, "arrayBuffersPeakMiB")! <= 16
      push({
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
  if (spec.importShareOfEffect !== undefined) {
    for (const [node, ours] of Object.entries(results.imports[`${line}:studio-effect`] ?? {})) {
      const modules = results.imports[`${line}:effect-modules`]?.[node]
      push({
        target: `\`import "studio-effect"\`: at most ${
          times(spec.importShareOfEffect)
        } the import of the Effect modules it needs`,
        met: modules === undefined ? undefined : ours <= spec.importShareOfEffect * modules,
        detail: `${show(ours, 1)} ms; the modules ${show(modules, 1)} ms${
          modules === undefined ? "" : ` (${(ours / modules).toFixed(2)}×)`
        } (Node.js ${node})`
      })
    }
  }
  if (spec.commandMs !== undefined) {
    for (const [node, ms] of Object.entries(results.commands[line] ?? {})) {
      push({
        target: `\`studio-effect --version\`: under ${spec.commandMs} ms, spawn to exit`,
        met: ms < spec.commandMs,
        detail: `${show(ms, 1)} ms (Node.js ${node})`
      })
    }
  }
  return out
}

/** Every line's targets, each line judged against its own floor. */
export const targets = (results: Results): Array<Verdict> =>
  (Object.keys(lines) as Array<Line>).flatMap((line) => targetsOf(results, line))

export const report = (results: Results, ids: ReadonlyArray<string>): string => {
  const out: Array<string> = []
  const startup = startupTable(results)
  if (startup !== undefined) out.push(startup, "")
  if (Object.keys(results.nodes).length > 0) {
    out.push(table(results, ids), "")
    if (ids.some((client) => Object.values(results.scenarios).some((r) => (r[client]?.garbled ?? 0) > 0))) {
      out.push("† every token arrived, but some characters were corrupted (decoded as U+FFFD).", "")
    }
    if (new Set(Object.values(results.nodes)).size > 1) {
      out.push(
        "The clients ran on different Node.js versions: a ratio across versions compares the runtimes too.",
        ""
      )
    }
  }
  for (const note of results.notMeasured) out.push(`Not measured: ${note}.`)
  if (results.notMeasured.length > 0) out.push("")
  const verdicts = targets(results)
  for (const line of Object.keys(lines) as Array<Line>) {
    const mine = verdicts.filter((verdict) => verdict.line === line)
    if (mine.length === 0) continue
    out.push(
      `${lines[line].title} line, against the ${lines[line].title} floor:`,
      "",
      "| target | verdict | numbers |",
      "| --- | --- | --- |",
      ...mine.map((t) => `| ${t.target} | ${t.met === undefined ? "—" : t.met ? "met" : "**missed**"} | ${t.detail} |`),
      ""
    )
  }
  return out.join("\n").trimEnd()
}

const main = async () => {
  const scale = Number(process.env.BENCH_SCALE ?? "1")
  const reps = Number(process.env.BENCH_REPS ?? "5")
  const rounds = Number(process.env.BENCH_ROUNDS ?? "1")
  const ids = process.env.BENCH_CLIENTS?.split(",") ?? [...allClients]
  ids.forEach(clientSpec)
  const requested = process.env.BENCH_NODE ?? "default"
  if (requested !== "default" && requested !== "lowest") {
    throw new Error(`BENCH_NODE is "default" (Node.js ${defaultNode}) or "lowest", not "${requested}"`)
  }
  const node: NodeChoice = requested
  const started = Date.now()
  const used = [...new Set(ids.map(clientSpec).map((spec) => spec.line))].map((line) => {
    const lowest = line === "peer" ? peersLowestNode : line === "ai-sdk" ? aiSdkLowestNode : lines[line].lowestNode
    const name = line === "peer" ? "peers" : line === "ai-sdk" ? "AI SDK clients" : `${lines[line].title} line`
    return `${name} on Node.js ${versionOf(nodeFor(node, lowest))}`
  })
  console.log(
    `studio-effect benchmark: scale ${scale}, ${reps} repetitions${rounds > 1 ? ` in each of ${rounds} rounds` : ""}; ${
      used.join(", ")
    }; ${os.cpus().length}× ${os.cpus()[0]?.model ?? "cpu"}, ${os.platform()} ${os.release()}; ${
      new Date().toISOString()
    }`
  )
  const scenarios = process.env.BENCH_SCENARIOS?.split(",")
  const results = await runBench({
    scale,
    reps,
    rounds,
    clients: ids,
    node,
    scenarios,
    log: (line) => console.error(line)
  })
  if (process.env.BENCH_JSON !== undefined) writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2))
  console.log("")
  console.log(report(results, ids))
  console.log("")
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((error) => {
    console.error(error)
    process.exit(1)
  })
}
