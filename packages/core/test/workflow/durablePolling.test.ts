/**
 * The delays of a durably polled run: the same on every replay, growing to the plan's longest delay, and
 * never adding up past its deadline; and the credential paths a durable request is refused for.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  defaultDurablePollPlan,
  type DurablePollPlan,
  type DurablePollWait,
  durableStepNames,
  maxDurableRetrieves,
  nextDurablePoll,
  storedCredentialPaths
} from "../../src/workflow/durablePolling.js"

const plan = fc.record({
  initialDelayMillis: fc.integer({ min: 0, max: 60_000 }),
  maxDelayMillis: fc.integer({ min: 1, max: 600_000 }),
  deadlineMillis: fc.integer({ min: 0, max: 24 * 3_600_000 })
})

/** Every wait of a run polled by `plan`, each worked out from the one before. */
const waitsOf = (p: DurablePollPlan): Array<DurablePollWait> => {
  const waits: Array<DurablePollWait> = []
  for (let step = 0; step <= maxDurableRetrieves; step++) {
    const wait = nextDurablePoll(p, waits.at(-1))
    if (wait === undefined) return waits
    waits.push(wait)
  }
  throw new Error("the delays never end")
}

const delaysOf = (p: DurablePollPlan): Array<number> => waitsOf(p).map((wait) => wait.delayMillis)

/** The delay before retrieve number `step`, stepped to from the first. */
const delayAt = (p: DurablePollPlan, step: number): number | undefined => {
  let wait: DurablePollWait | undefined
  for (let at = 0; at <= step; at++) {
    wait = nextDurablePoll(p, wait)
    if (wait === undefined) return undefined
  }
  return wait?.delayMillis
}

/**
 * The delays as the plan describes them: the first delay (at least 0), then each ×1.5 rounded, every one held
 * to the longest delay; as many of them as add up to no more than the deadline, and at most
 * `maxDurableRetrieves`.
 */
const describedDelays = (p: DurablePollPlan): Array<number> => {
  const grown = [Math.max(0, p.initialDelayMillis)]
  while (grown.length < maxDurableRetrieves) {
    grown.push(Math.min(Math.round(grown.at(-1)! * 1.5), p.maxDelayMillis))
  }
  const delays = grown.map((delay) => Math.min(delay, p.maxDelayMillis))
  let waited = 0
  const fitting = delays.findIndex((delay) => (waited += delay) > p.deadlineMillis)
  return fitting === -1 ? delays : delays.slice(0, fitting)
}

describe("nextDurablePoll", () => {
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
      expect(delayAt(p, step)).toBe(delayAt(p, step))
    }))
  })

  it("steps through the delays the plan describes, counting the time waited", () => {
    fc.assert(fc.property(plan, (p) => {
      const waits = waitsOf(p)
      expect(waits.map((wait) => wait.delayMillis)).toEqual(describedDelays(p))
      let waited = 0
      waits.forEach((wait, step) => {
        waited += wait.delayMillis
        expect(wait).toEqual({ step, delayMillis: wait.delayMillis, waitedMillis: waited })
      })
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

  it("keeps the stored names of a waited batch's create, retrieves and waits", () => {
    expect(durableStepNames.batchCreate).toBe("studio.batches.create")
    expect(durableStepNames.batchRetrieve("batch_1", 0)).toBe("studio.batches.retrieve.batch_1.0")
    expect(durableStepNames.batchWait("batch_1", 3)).toBe("studio.batches.wait.batch_1.3")
  })

  it("names each batch's steps apart, so one workflow may wait on several batches", () => {
    const step = fc.record({ id: fc.string({ minLength: 1 }), step: fc.nat({ max: 1_000 }) })
    fc.assert(fc.property(step, step, (a, b) => {
      const same = a.id === b.id && a.step === b.step
      expect(durableStepNames.batchRetrieve(a.id, a.step) === durableStepNames.batchRetrieve(b.id, b.step)).toBe(same)
      expect(durableStepNames.batchWait(a.id, a.step) === durableStepNames.batchWait(b.id, b.step)).toBe(same)
      expect(durableStepNames.batchRetrieve(a.id, a.step)).not.toBe(durableStepNames.batchWait(b.id, b.step))
    }))
  })
})
