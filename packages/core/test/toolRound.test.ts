/**
 * The tool loop's rules without an effect: its limits, the check of an answer's calls (a round runs whole
 * or not at all) and a handler's answer as text.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { answerText, checkRound, toolLoopLimits } from "../src/chat/toolRound.js"

const call = (id: string, name = "lookup", args = "{}") => ({ id, function: { name, arguments: args } })
const context = {
  round: 1,
  maxCallsPerRound: 16,
  answered: new Set<string>() as ReadonlySet<string>,
  hasHandler: (_name: string) => true
}

describe("toolRound", () => {
  it("limits: defaults, and an issue for each option out of its bounds", () => {
    expect(toolLoopLimits({})).toEqual({ maxRounds: 8, concurrency: 4, maxCallsPerRound: 16 })
    expect(toolLoopLimits({ maxRounds: 0, concurrency: 1.5, maxCallsPerRound: 128 })).toEqual([
      { path: "maxRounds", message: "maxRounds must be an integer from 1 to 100" },
      { path: "concurrency", message: "concurrency must be an integer from 1 to 64" }
    ])
  })

  it("property: a round of distinct, known, parsable calls within the limit runs, with each call's arguments", () =>
    fc.assert(fc.property(fc.uniqueArray(fc.string(), { maxLength: 16 }), fc.array(fc.jsonValue()), (ids, values) => {
      const calls = ids.map((id, i) => call(id, "lookup", JSON.stringify(values[i] ?? {})))
      const checked = checkRound(calls, context)
      expect(checked._tag).toBe("Run")
      if (checked._tag === "Run") {
        expect(checked.args).toEqual(calls.map((c) => JSON.parse(c.function.arguments)))
        expect([...checked.named].sort()).toEqual([...ids].sort())
      }
    })))

  it("the first call that cannot run refuses the round", () => {
    const refusal = (calls: ReadonlyArray<ReturnType<typeof call>>, over: Partial<typeof context> = {}) => {
      const checked = checkRound(calls, { ...context, ...over })
      return checked._tag === "Refused" ? checked.refusal : undefined
    }
    expect(refusal([call("a"), call("b"), call("c")], { maxCallsPerRound: 2 })).toMatchObject({
      reason: "TooManyCalls",
      toolCallId: "c",
      calls: 3
    })
    expect(refusal([call("a"), call("a")])).toMatchObject({ reason: "RepeatedCallId", toolCallId: "a" })
    expect(refusal([call("a")], { answered: new Set(["a"]) })).toMatchObject({ reason: "RepeatedCallId" })
    expect(refusal([call("a", "missing")], { hasHandler: (name) => name !== "missing" })).toMatchObject({
      reason: "UnknownTool",
      toolName: "missing"
    })
    const invalid = refusal([call("a", "lookup", `{${"x".repeat(500)}`)])
    expect(invalid).toMatchObject({ reason: "InvalidArguments", round: 1 })
    expect(invalid!.arguments.length).toBe(201)
    expect(checkRound([call("a", "lookup", "  ")], context)).toMatchObject({ _tag: "Run", args: [{}] })
  })

  it("an answer is sent as a string as it is, else as its JSON, or its text when it has none", () => {
    const cycle: Record<string, unknown> = {}
    cycle["self"] = cycle
    expect(answerText("plain")).toBe("plain")
    expect(answerText({ a: 1 })).toBe("{\"a\":1}")
    expect(answerText(undefined)).toBe("null")
    expect(answerText(10n)).toBe("10")
    expect(answerText(cycle)).toBe("[object Object]")
  })
})
