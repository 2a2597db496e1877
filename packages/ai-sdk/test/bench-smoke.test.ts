/**
 * The benchmark harness (`bench/run.ts`) at a tiny scale for the AI SDK's clients (`studio-effect-ai-sdk`
 * and `@ai-sdk/openai-compatible`, both through `ai` 7) beside raw `fetch`: every client runs every scenario
 * in its own process and every token arrives intact. No timing is asserted.
 */
import { describe, expect, it } from "vitest"
import { clientsOf, runBench } from "../../../bench/run.js"

const clients = ["fetch", ...clientsOf("ai-sdk")]
const scenarios = ["sequential", "concurrent", "stream-events", "stream-coalesced", "short-streams", "long-stream"]

describe("bench harness, AI SDK clients", () => {
  it("runs every client through every scenario, and every token arrives", async () => {
    expect(clientsOf("ai-sdk")).toEqual(["ai-sdk", "ai-sdk-openai-compatible"])
    const results = await runBench({
      scale: 0.002,
      reps: 1,
      clients,
      scenarios,
      node: { binary: process.execPath },
      oneProcessPerClient: true
    })
    for (const scenario of scenarios) {
      for (const client of clients) {
        const sample = results.scenarios[scenario]?.[client]
        expect(sample, `${scenario} ${client}`).toBeDefined()
        expect(sample!.garbled ?? 0, `${scenario} ${client}`).toBe(0)
      }
    }
  })
})
