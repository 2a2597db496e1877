/**
 * The delays of a durably polled run: the same on every replay, growing to the plan's longest delay, and
 * never adding up past its deadline; and the credential paths a durable request is refused for.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  defaultDurablePollPlan,
  durablePollDelay,
  durableStepNames,
  maxDurableRetrieves,
  storedCredentialPaths
} from "../../src/workflow/durablePolling.js"

const plan = fc.record({
  initialDelayMillis: fc.integer({ min: 0, max: 60_000 }),
  maxDelayMillis: fc.integer({ min: 1, max: 600_000 }),
  deadlineMillis: fc.integer({ min: 0, max: 24 * 3_600_000 })
})

const delaysOf = (p: Parameters<typeof durablePollDelay>[0]): Array<number> => {
  const delays: Array<number> = []
  for (let step = 0; step <= maxDurableRetrieves; step++) {
    const delay = durablePollDelay(p, step)
    if (delay === undefined) return delays
    delays.push(delay)
  }
  throw new Error("the delays never end")
}

describe("durablePollDelay", () => {
  it("grows from 1 s by ×1.5 to 10 s by default", () => {
    expect(delaysOf(defaultDurablePollPlan).slice(0, 8)).toEqual([1000, 1500, 2250, 3375, 5063, 7595, 10000, 10000])
  })

  it("ends after at most maxDurableRetrieves retrieves, zero delays included", () => {
    expect(delaysOf({ initialDelayMillis: 0, maxDelayMillis: 1, deadlineMillis: 1_000 }).length).toBe(
      maxDurableRetrieves
    )
  })

  it("gives whole milliseconds, at most the longest delay, adding up to no more than the deadline", () => {
    fc.assert(fc.property(plan, (p) => {
      const delays = delaysOf(p)
      for (const delay of delays) {
        expect(Number.isInteger(delay)).toBe(true)
        expect(delay).toBeLessThanOrEqual(p.maxDelayMillis)
      }
      expect(delays.reduce((sum, delay) => sum + delay, 0)).toBeLessThanOrEqual(p.deadlineMillis)
    }))
  })

  it("is the same on every call, as a replay needs", () => {
    fc.assert(fc.property(plan, fc.nat({ max: 200 }), (p, step) => {
      expect(durablePollDelay(p, step)).toBe(durablePollDelay(p, step))
    }))
  })
})

describe("storedCredentialPaths", () => {
  it("names every tool's non-empty headers and nothing else", () => {
    expect(storedCredentialPaths({
      input: "x",
      tools: [
        { type: "mcp", server_url: "https://a.example", headers: { Authorization: "Bearer s" } },
        { type: "web_search" },
        { type: "http", function: { name: "f" }, endpoint: { url: "https://b.example", headers: { "x-key": "k" } } },
        { type: "mcp", server_url: "https://c.example", headers: {} }
      ]
    })).toEqual(["tools[0].headers", "tools[2].endpoint.headers"])
    expect(storedCredentialPaths({ input: "no tools" })).toEqual([])
  })
})

describe("durableStepNames", () => {
  it("keeps the stored names of a durable tool loop's rounds and calls", () => {
    expect([durableStepNames.chatRound(1), durableStepNames.chatRound(12)]).toEqual([
      "studio.chat.round.1",
      "studio.chat.round.12"
    ])
    expect(durableStepNames.toolCall("call_0a1b")).toBe("studio.chat.tool.call_0a1b")
  })

  it("names each round and each call apart, as the engine finds each step's result by its name", () => {
    fc.assert(fc.property(fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 2 }), (ids) => {
      expect(new Set(ids.map(durableStepNames.toolCall)).size).toBe(ids.length)
    }))
    fc.assert(fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 }), (a, b) => {
      expect(durableStepNames.chatRound(a) === durableStepNames.chatRound(b)).toBe(a === b)
    }))
  })
})
