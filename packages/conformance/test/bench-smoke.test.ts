/**
 * The repository's benchmark harness (`bench/run.ts`) at a tiny scale, for the peers and the line that runs
 * it: the server starts, every client runs every scenario in its own process, and every token arrives; the
 * line's imports and command are measured when its dist/ is built, and said to be missing otherwise. No
 * timing is asserted. `BENCH_CLIENTS` (comma-separated) narrows the clients.
 */
import { describe, expect, it, line } from "@studio-effect/line"
import { clientsOf, lines, lineTargets, report, runBench } from "../../../bench/run.js"

const clients = process.env.BENCH_CLIENTS?.split(",") ?? [...clientsOf("peer"), ...clientsOf(line)]
const { dir, title } = lines[line]
const targets = lineTargets[line]

describe(`bench harness, ${title} line`, () => {
  it("runs every client through every scenario, and every token arrives", async () => {
    const results = await runBench({
      scale: 0.002,
      reps: 1,
      clients,
      node: { binary: process.execPath },
      oneProcessPerClient: true
    })
    for (
      const scenario of [
        "sequential",
        "concurrent",
        "stream-events",
        "stream-coalesced",
        "first-token",
        "short-streams",
        "long-stream"
      ]
    ) {
      for (const client of clients) {
        const sample = results.scenarios[scenario]?.[client]
        expect(sample, `${scenario} ${client}`).toBeDefined()
        // the ai21 SDK decodes each read on its own, so a character cut across reads may be corrupted
        if (client !== "ai21") expect(sample!.garbled ?? 0, `${scenario} ${client}`).toBe(0)
      }
    }
    if (clients.includes(targets.validation)) {
      expect(results.scenarios["validation"]?.[targets.validation]?.chatValidationUs).toBeGreaterThan(0)
    }
    for (const client of clients) {
      expect(results.nodes[client], client).toBe(process.versions.node)
      expect(results.scenarios["sequential"]?.[client]?.cpuUsPerRequest, client).toBeGreaterThan(0)
      expect(results.scenarios["short-streams"]?.[client]?.cpuUsPerStream, client).toBeGreaterThan(0)
      expect(results.scenarios["first-token"]?.[client]?.firstTokenMs, client).toBeGreaterThan(0)
    }
    for (const peer of ["ai21", "openai"].filter((peer) => clients.includes(peer))) {
      expect(results.imports[peer]?.[process.versions.node], peer).toBeGreaterThan(0)
    }
    // each is measured, or the report says why not (dist/ missing, or rebuilt while the run loaded it)
    const measuredOrExplained = (record: Record<string, Record<string, number>>, id: string) => {
      const value = record[id]?.[process.versions.node]
      if (value !== undefined) expect(value, id).toBeGreaterThan(0)
      else {
        expect(
          results.notMeasured.some((note) =>
            note.includes(`${dir}/dist is missing`) || note.startsWith(`${id} on Node.js`)
          ),
          id
        ).toBe(true)
      }
    }
    for (const entry of ["studio-effect", "studio-effect/reference", "studio-effect/ai"]) {
      measuredOrExplained(results.imports, `${line}:${entry}`)
    }
    // the Effect modules the SDK's import is judged against
    if (targets.importShareOfEffect !== undefined) measuredOrExplained(results.imports, `${line}:effect-modules`)
    measuredOrExplained(results.commands, line)

    const printed = report(results, clients)
    expect(printed).toContain("| client | Node.js |")
    // with every client, every target of the line is judged in the report
    if (process.env.BENCH_CLIENTS === undefined) {
      expect(printed).toContain("| target | verdict | numbers |")
      expect(printed).toContain(`${title} floor`)
      expect(printed).toContain("| start-up, median of fresh processes | Node.js | ms |")
      for (
        const target of [
          "sequential requests",
          "requests at c=32",
          "short streams at c=16",
          "long stream, one event per write",
          "long stream, 16 KiB writes",
          "outside Effect",
          "time to first token",
          "validation of a typical chat request",
          "1M-token stream",
          ...(targets.importShareOfEffect !== undefined && results.imports[`${line}:studio-effect`] !== undefined
            ? ["`import \"studio-effect\"`: at most"]
            : []),
          ...(targets.commandMs !== undefined && results.commands[line] !== undefined
            ? ["`studio-effect --version`"]
            : [])
        ]
      ) expect(printed).toContain(target)
    }
  }, 180_000)

  it("runs a scenario's clients in turn, once a round, and takes each figure over every round", async () => {
    const logged: Array<string> = []
    const results = await runBench({
      scale: 0.002,
      reps: 1,
      rounds: 2,
      clients: ["fetch", "undici"],
      node: { binary: process.execPath },
      scenarios: ["sequential"],
      log: (line) => logged.push(line)
    })
    const rounds = logged.map((line) => /^sequential (\S+) \(round (\d) of 2\): (\{.*\}) \(\d+ ms\)$/.exec(line))
    expect(rounds.map((match) => match === null ? null : `${match[1]} ${match[2]}`)).toEqual([
      "fetch 1",
      "undici 1",
      "fetch 2",
      "undici 2"
    ])
    for (const client of ["fetch", "undici"]) {
      // one repetition a round: the median of the two rounds is their mean
      const [first, second] = rounds
        .filter((match) => match![1] === client)
        .map((match) => JSON.parse(match![3]!).cpuUsPerRequest as number)
      expect(results.scenarios["sequential"]?.[client]?.cpuUsPerRequest, client).toBeCloseTo((first! + second!) / 2)
    }
  }, 120_000)
})
