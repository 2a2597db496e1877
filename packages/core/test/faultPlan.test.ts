import { describe, expect, it } from "vitest"
import { type Fault, faultsFor, scheduleFaults } from "../src/reference/faultPlan.js"

describe("scheduleFaults", () => {
  it("runs the delays up to the first drop or status, and reads no fault after it", () => {
    const faults: ReadonlyArray<Fault<number>> = [
      { _tag: "Delay", duration: 1 },
      { _tag: "Status", status: 503 },
      { _tag: "Delay", duration: 2 },
      { _tag: "Drop" }
    ]
    expect(scheduleFaults(faults)).toEqual({
      delays: [1],
      first: { _tag: "Status", status: 503 },
      after: undefined,
      cut: undefined
    })
  })

  it("keeps the last fault after handling and the last cut of the body", () => {
    const faults: ReadonlyArray<Fault<number>> = [
      { _tag: "CutStream", afterEvents: 1 },
      { _tag: "AfterHandling", status: 504 },
      { _tag: "DropMidStream", afterEvents: 3 }
    ]
    const schedule = scheduleFaults(faults)
    expect(schedule.first).toBeUndefined()
    expect(schedule.after).toEqual({ _tag: "AfterHandling", status: 504 })
    expect(schedule.cut).toEqual({ _tag: "DropMidStream", afterEvents: 3 })
  })

  it("gives a request of a list plan its entry, one fault or several", () => {
    const plan = [{ _tag: "Drop" } as const, null, [{ _tag: "Delay", duration: 5 } as const]]
    const at = (index: number) => faultsFor<number>(plan, { method: "GET", path: "/", index })
    expect([at(0), at(1), at(2), at(3)]).toEqual([[{ _tag: "Drop" }], [], [{ _tag: "Delay", duration: 5 }], []])
  })
})
