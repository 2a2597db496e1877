/**
 * The service's FastAPI-shaped refusals: a body parsed and measured before its schema, the bearer key of a
 * header, and issues cut to a bound.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { bearerKey, fastApiIssues, parseJsonBody, shapeOf } from "../src/reference/fastApi.js"

describe("fastApi", () => {
  it("a missing body, malformed JSON and a body nested too deeply are refused with FastAPI's issues", () => {
    expect(parseJsonBody("  ", 64)).toEqual({
      _tag: "Refused",
      issues: [{ loc: ["body"], msg: "Field required", type: "missing" }]
    })
    const malformed = parseJsonBody("{\"a\": }", 64)
    expect(malformed._tag === "Refused" && malformed.issues[0]!.type).toBe("json_invalid")
    expect(parseJsonBody("[[[1]]]", 2)).toEqual({
      _tag: "Refused",
      issues: [{ loc: ["body"], msg: "JSON nested more than 2 levels deep", type: "value_error" }]
    })
    expect(parseJsonBody("[[[1]]]", 3)).toEqual({ _tag: "Parsed", value: [[[1]]], everyIssue: true })
    expect(parseJsonBody(JSON.stringify(Array(20_000).fill(0)), 3)).toMatchObject({ everyIssue: false })
  })

  it("a body nested 100,000 levels deep is measured without recursion", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000)
    expect(shapeOf(JSON.parse(deep), 64).tooDeep).toBe(true)
  })

  it("property: any JSON value within the depth parses back to itself", () =>
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
      const parsed = parseJsonBody(JSON.stringify(value), 64)
      expect(parsed).toMatchObject({ _tag: "Parsed" })
      expect(parsed._tag === "Parsed" && JSON.stringify(parsed.value)).toBe(JSON.stringify(value))
    })))

  it("the bearer key: only `Bearer <key>`, any case, one token", () => {
    expect(bearerKey("Bearer sk-1")).toBe("sk-1")
    expect(bearerKey("bearer   sk-1  ")).toBe("sk-1")
    expect(bearerKey("Basic sk-1")).toBeUndefined()
    expect(bearerKey("Bearer a b")).toBeUndefined()
    expect(bearerKey(undefined)).toBeUndefined()
  })

  it("at most 100 issues, each message cut to a bound, a missing field worded as pydantic does", () => {
    const located = Array.from({ length: 150 }, (_, i) => ({
      loc: ["messages", i],
      message: "x".repeat(1_000),
      type: i === 0 ? "missing" as const : "string_type" as const
    }))
    const issues = fastApiIssues(located)
    expect(issues).toHaveLength(100)
    expect(issues[0]).toEqual({ loc: ["body", "messages", 0], msg: "Field required", type: "missing" })
    expect(issues[1]!.msg.length).toBeLessThanOrEqual(503)
  })
})
