/**
 * The benchmark harness at a tiny scale: the server starts, every client runs every scenario in its own
 * process, and every token arrives. No timing is asserted.
 */
import { describe, expect, it } from "vitest"
import { allClients, report, runBench } from "../bench/run.js"

describe("bench harness", () => {
  it("runs every client through every scenario, and every token arrives", async () => {
    const results = await runBench({ scale: 0.002, reps: 1, clients: allClients, oneProcessPerClient: true })
    for (
      const scenario of [
        "sequential",
        "concurrent",
        "stream-events",
        "stream-coalesced",
        "short-streams",
        "long-stream"
      ]
    ) {
      for (const client of allClients) {
        const sample = results[scenario]?.[client]
        expect(sample, `${scenario} ${client}`).toBeDefined()
        // the ai21 SDK decodes each read on its own, so a character cut across reads may be corrupted
        if (client !== "ai21") expect(sample!.garbled ?? 0, `${scenario} ${client}`).toBe(0)
      }
    }
    expect(results["validation"]?.["studio-undici"]?.chatValidationUs).toBeGreaterThan(0)
    const printed = report(results, allClients)
    expect(printed).toContain("| target | verdict | numbers |")
    expect(printed).toContain("Effect floor")
    // every target of the SDK is judged in the report
    for (
      const target of [
        "sequential requests",
        "requests at c=32",
        "500 short streams",
        "100k stream, one event per write",
        "100k stream, 16 KiB writes",
        "outside Effect",
        "time to first token",
        "validation of a typical chat request",
        "1M-token stream"
      ]
    ) expect(printed).toContain(target)
    for (const client of allClients) {
      expect(results["sequential"]?.[client]?.cpuUsPerRequest, client).toBeGreaterThan(0)
      expect(results["short-streams"]?.[client]?.cpuUsPerStream, client).toBeGreaterThan(0)
      expect(results["stream-events"]?.[client]?.firstTokenMs, client).toBeGreaterThan(0)
    }
  }, 120_000)
})
