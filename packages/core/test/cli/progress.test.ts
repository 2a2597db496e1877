/**
 * A followed run as the command shows it: the progress line, and the report of a terminal run (its result,
 * then a table of requirement scores aligned in columns, then the overall score).
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { progressLine, redrawn, runReport, stoppedMessage } from "../../src/cli/progress.js"
import { length } from "../../src/text/codePoints.js"

const same = (text: string) => text

describe("progressLine", () => {
  it("says the status, the elapsed seconds and the polls", () => {
    expect(progressLine("run-1", "in_progress", 1234, 1)).toBe("run run-1: in_progress, 1.2s, 1 poll")
    expect(progressLine("run-1", "completed", 0, 3)).toBe("run run-1: completed, 0.0s, 3 polls")
  })

  it("fits one terminal line whatever the service calls the run and its status", () => {
    const line = progressLine("r".repeat(100_000), "s".repeat(1024 * 1024), 1000, 2)
    expect(line.length).toBeLessThanOrEqual(160)
    expect(line).toMatch(/…: s+…, 1\.0s, 2 polls$/)
  })
})

describe("redrawn", () => {
  it("returns to the line's start and erases it, with control characters made visible", () => {
    const text = redrawn("a\u001b]0;title\u0007b")
    expect(text.startsWith("\r\x1b[2K")).toBe(true)
    expect(text.slice(5)).not.toMatch(/[\u0000-\u001f]/u)
  })
})

describe("stoppedMessage", () => {
  it("says how to pick the run up, or that the embedded service ends with the command", () => {
    expect(stoppedMessage("r", false)).toContain("`studio-effect run watch r`")
    expect(stoppedMessage("r", true)).toContain("the embedded reference service (--reference) ends")
  })
})

describe("runReport", () => {
  it("is the result alone when there are no requirement scores", () => {
    expect(runReport({ result: "done" }, same)).toEqual(["done"])
    expect(runReport({ result: null, requirements_result: null }, same)).toEqual(["(none)"])
    expect(runReport({ result: { a: 1 }, requirements_result: { requirements: [] } }, same)).toEqual([
      JSON.stringify({ a: 1 }, null, 2)
    ])
  })

  it("lays the scores out in columns, marks the mandatory ones and ends with the overall score", () => {
    const lines = runReport({
      result: "done",
      requirements_result: {
        score: 0.5,
        finish_reason: "all requirements met",
        requirements: [
          { name: "list", is_mandatory: true, score: 1, reason: "a list" },
          { name: "brevity-of-answer", score: 0, reason: null }
        ]
      }
    }, same)
    expect(lines).toEqual([
      "done",
      "",
      "requirement        score  reason",
      "list *              1.00  a list",
      "brevity-of-answer   0.00",
      "score 0.50 (all requirements met); * mandatory"
    ])
  })

  it("shows every text from the service through `shown`, and no overall score as -", () => {
    const lines = runReport({
      result: "r",
      requirements_result: { requirements: [{ name: "n", score: 0.25, reason: "why" }] }
    }, (text) => text.toUpperCase())
    expect(lines[0]).toBe("R")
    expect(lines[3]).toBe("N             0.25  WHY")
    expect(lines.at(-1)).toBe("score -")
  })
})

describe("progressLine at a terminal's width", () => {
  it("is the whole line when it fits, or when the width is unknown", () => {
    expect(progressLine("run-1", "in_progress", 1234, 1, 120)).toBe("run run-1: in_progress, 1.2s, 1 poll")
    expect(progressLine("r".repeat(64), "in_progress", 0, 0, undefined)).toBe(
      progressLine("r".repeat(64), "in_progress", 0, 0)
    )
    expect(progressLine("r".repeat(64), "in_progress", 0, 0, 0)).toBe(progressLine("r".repeat(64), "in_progress", 0, 0))
  })

  it("fits in one column fewer than the terminal's, cutting the id first", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200, unit: "grapheme" }),
        fc.string({ maxLength: 80 }),
        fc.nat(10_000_000),
        fc.nat(100_000),
        fc.integer({ min: 1, max: 300 }),
        (id, status, elapsed, polls, columns) => {
          const line = progressLine(id, status, elapsed, polls, columns)
          expect(length(line)).toBeLessThanOrEqual(Math.max(1, columns - 1))
        }
      )
    )
    const line = progressLine(`run_${"a".repeat(60)}`, "in_progress", 1500, 2, 60)
    expect(length(line)).toBe(59)
    expect(line).toMatch(/^run run_a+…: in_progress, 1\.5s, 2 polls$/)
  })
})
