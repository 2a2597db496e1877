import { describe, expect, it } from "@studio-effect/line"
import { formatReport, runSoak } from "./soak.js"

describe("soak (small scale; `npm run soak` runs 10,000 operations at concurrency 64)", () => {
  it("mixed requests and streams with random faults: only successes and typed errors, nothing leaks", async () => {
    const report = await runSoak({ requests: 400, concurrency: 16, faultRate: 0.2, seed: 7 })
    console.log(formatReport(report))
    expect(report.problems).toEqual([])
    expect(report.outcomes["success"]).toBeGreaterThan(200)
    expect(report.faultsInjected).toBeGreaterThan(20)
    expect(report.connections.openAfterClose).toBe(0)
    expect(report.fibersAlive).toBe(0)
    expect(report.secretLeaks).toBe(0)
  }, 60_000)
})
