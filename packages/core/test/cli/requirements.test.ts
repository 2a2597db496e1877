/**
 * `--requirement name=description` and `--mandatory name` read as a run's requirements, and the request
 * that starts a run with them.
 */
import { describe, expect, it } from "vitest"
import { parseRequirements, requirementsOf, unknownMandatory } from "../../src/cli/requirements.js"
import { runRequest } from "../../src/cli/run.js"

describe("parseRequirements", () => {
  it("reads name=description, both trimmed, the description keeping later =", () => {
    expect(parseRequirements([" list = Answer as a list ", "eq=a=b"])).toEqual({
      _tag: "Requirements",
      requirements: [{ name: "list", description: "Answer as a list" }, { name: "eq", description: "a=b" }]
    })
  })

  it.each(["list", "=x", "x=", " = "])("refuses %j", (value) => {
    expect(parseRequirements([value])).toEqual({
      _tag: "Invalid",
      message: `--requirement needs name=description, as in "list=Answer as a numbered list"; got "${value}"`
    })
  })

  it("refuses a name given twice", () => {
    expect(parseRequirements(["a=x", "a=y"])).toEqual({
      _tag: "Invalid",
      message: "--requirement a is given twice: give each requirement a name of its own"
    })
  })
})

describe("mandatory requirements", () => {
  const given = [{ name: "a", description: "x" }, { name: "b", description: "y" }]

  it("refuses a name no requirement has", () => {
    expect(unknownMandatory(given, ["a"])).toBeUndefined()
    expect(unknownMandatory(given, ["a", "c"])).toBe(
      "--mandatory c names no requirement: add --requirement \"c=...\" first"
    )
  })

  it("marks the requirements named mandatory", () => {
    expect(requirementsOf(given, ["b"])).toEqual([
      { name: "a", description: "x", is_mandatory: false },
      { name: "b", description: "y", is_mandatory: true }
    ])
  })
})

const none = { include: [], webSearch: false, webSearchUrls: [], fileSearch: false, fileLabels: [] }

describe("runRequest", () => {
  it("asks for the requirement scores whenever there are requirements", () => {
    expect(runRequest("do", [{ name: "a" }], none)).toEqual({
      input: "do",
      requirements: [{ name: "a" }],
      include: ["requirements_result"]
    })
    expect(runRequest("do", [], { ...none, budget: "high", include: ["data_sources", "data_sources"] })).toEqual({
      input: "do",
      budget: "high",
      include: ["data_sources"]
    })
    expect(runRequest("do", [], none)).toEqual({ input: "do" })
  })

  it("maps the model, system prompt, language and search tools to the request's fields", () => {
    expect(
      runRequest("do", [], { ...none, model: "m1", system: "Be brief", language: "french", webSearch: true })
    ).toEqual({
      input: "do",
      models: ["m1"],
      system_prompt: "Be brief",
      response_language: "french",
      tools: [{ type: "web_search" }]
    })
    expect(runRequest("do", [], { ...none, webSearchUrls: ["a.com"], fileLabels: ["tea"] }).tools).toEqual([
      { type: "web_search", urls: ["a.com"] },
      { type: "file_search", labels: ["tea"] }
    ])
    expect(runRequest("do", [], { ...none, fileSearch: true }).tools).toEqual([{ type: "file_search" }])
  })
})
