import { describe, expect, it } from "@studio-effect/line"
import * as fc from "fast-check"
import { setImmediate as nextTurn } from "node:timers/promises"
import { MaestroSchema } from "studio-effect"
import { acceptRunRequest } from "studio-effect-core/validate/runRequest"
import { typicalRunRequest } from "../../../bench/fixtures.js"
import {
  absoluteUrl,
  validRequirement,
  validRunRequest,
  validToolResources,
  webSearchUrl,
  wordsText
} from "./validation/arbitraries.js"
import { aroundValid, schemaGives, withEachFieldAdded } from "./validation/mutations.js"
import { wireForm } from "./validation/support.js"

const expectSchemaGives = schemaGives(MaestroSchema.RunRequest)

const mcp = (label: string) => ({ type: "mcp", server_label: label, server_url: "https://mcp.example.com" })

/** Values at and just past the bounds of the rules of each field, alone and together. */
const fieldEdges = {
  input: fc.constantFrom(
    "",
    [],
    [{ role: "user", content: "a" }, { role: "user", content: "b" }],
    [{ role: "assistant", content: "a" }, { role: "user", content: "b" }],
    [{ role: "system", content: "a" }]
  ),
  requirements: fc.oneof(
    fc.array(validRequirement, { minLength: 10, maxLength: 11 }),
    fc.constantFrom(128, 129).chain(wordsText).map((description) => [{ name: "r", description }]),
    fc.constant([{ name: "", description: "d" }])
  ),
  tools: fc.oneof(
    fc.constantFrom(
      [mcp("a"), mcp("a")],
      [mcp("a"), mcp("b")],
      [mcp("")],
      [{ type: "mcp", server_label: "a", server_url: "example.com" }],
      [{ type: "http", function: {}, endpoint: { url: "ftp://example.com" } }],
      [{ type: "web_search", urls: ["https://example.com/path"] }]
    ),
    absoluteUrl.map((url) => [{ type: "http", function: {}, endpoint: { url } }]),
    webSearchUrl.map((url) => [{ type: "web_search", urls: [url] }])
  ),
  models: fc.constantFrom([], ["jamba-large"], ["jamba-large", "jamba-mini"]),
  budget: fc.constantFrom("low", "max"),
  response_language: fc.constantFrom("english", "klingon"),
  include: fc.constantFrom(["data_sources"], ["requirements_result.metadata"]),
  tool_resources: fc.oneof(validToolResources, fc.constant({ web_search: { urls: ["http://example.com"] } }))
}

const anyInput = aroundValid(validRunRequest, fieldEdges)

describe("the run request fast path", () => {
  it("gives exactly what the RunRequest schema gives, whenever it accepts a request", async () => {
    let accepted = 0
    await fc.assert(
      fc.asyncProperty(anyInput, async (input) => {
        // a turn of the event loop in each run: a process that never turns cannot answer vitest's runner
        await nextTurn()
        const value = acceptRunRequest(input)
        if (value === undefined) return
        accepted++
        expectSchemaGives(input, value)
      }),
      { numRuns: 5_000 }
    )
    // the changes keep some requests valid, which the fast path must take as well
    expect(accepted).toBeGreaterThan(500)
  })

  it("accepts every valid request, its nulls left out", () =>
    fc.assert(
      fc.property(validRunRequest.map((request) => wireForm(request)), (request) => {
        const value = acceptRunRequest(request)
        expect(value).toBeDefined()
        expectSchemaGives(request, value)
      }),
      { numRuns: 1_000 }
    ))

  it("accepts the typical request of the benchmark", () => {
    const value = acceptRunRequest(typicalRunRequest)
    expect(value).toBeDefined()
    expectSchemaGives(typicalRunRequest, value)
  })

  it("gives exactly what the schema gives for a full request with any field added anywhere", () => {
    const full = {
      ...typicalRunRequest,
      tool_resources: { file_search: { labels: ["l"], file_ids: ["f"] }, web_search: { urls: ["example.com"] } }
    }
    expect(acceptRunRequest(full)).toBeDefined()
    for (const input of withEachFieldAdded(full)) {
      const value = acceptRunRequest(input)
      if (value !== undefined) expectSchemaGives(input, value)
    }
  })

  it("leaves a null to the schema", () => {
    expect(acceptRunRequest({ input: "Hi", response_language: null })).toBeUndefined()
  })
})
