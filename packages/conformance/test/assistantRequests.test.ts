import { describe, expect, it, type RequestSchema } from "@studio-effect/line"
import * as fc from "fast-check"
import { AssistantSchema } from "studio-effect"
import { acceptAssistantRunRequest, acceptCreateAssistantRequest } from "studio-effect-core/validate/assistantRequests"
import { typicalRunRequest } from "../../../bench/fixtures.js"
import {
  validAssistantRunRequest,
  validCreateAssistantRequest,
  validRequirement,
  validServiceRequirement,
  wordsText
} from "./validation/arbitraries.js"
import { aroundValid, schemaGives, withEachFieldAdded } from "./validation/mutations.js"

/** Values at and just past the bounds of the rules of the fields an assistant shares with a run. */
const settingsEdges = {
  requirements: fc.oneof(
    fc.array(fc.oneof(validRequirement, validServiceRequirement), { minLength: 10, maxLength: 11 }),
    fc.constantFrom(128, 129).chain(wordsText).map((description) => [{ description }]),
    fc.constantFrom(
      [{ type: "mandatory" }],
      [{ title: "", description: "" }],
      [{ id: "r", title: "t" }],
      [{ name: "", description: "d" }],
      [{ name: "n", description: "d", type: "mandatory" }]
    )
  ),
  tools: fc.constantFrom(
    [{ type: "mcp", server_label: "a", server_url: "https://a.example.com" }],
    [
      { type: "mcp", server_label: "a", server_url: "https://a.example.com" },
      { type: "mcp", server_label: "a", server_url: "https://b.example.com" }
    ]
  ),
  models: fc.constantFrom([], ["jamba-large", "jamba-mini"]),
  budget: fc.constantFrom("high", "max"),
  response_language: fc.constantFrom("unset", "english", "klingon")
}

const runEdges = {
  ...settingsEdges,
  input: fc.constantFrom(
    [],
    [{ role: "user", content: "a" }, { role: "user", content: "b" }],
    [{ role: "system", content: "a" }]
  ),
  output_type: fc.constantFrom("json", "JSON", {}, { type: "object" }, []),
  include: fc.constantFrom(["requirements_result.metadata"], ["metadata"])
}

const createEdges = {
  ...settingsEdges,
  name: fc.constantFrom("", "a"),
  assistant_type: fc.constantFrom("chat", "other"),
  starter_questions: fc.constantFrom([{ title: "t", prompt: "p" }], [{ title: "t" }]),
  workflow_config: fc.constantFrom({ endpoint_url: "" }, {}, { endpoint_url: "u", headers: { a: 1 } }),
  config_overrides: fc.constantFrom({}, [], { a: [1] })
}

const settings = {
  system_prompt: "You write product copy.",
  requirements: [
    { name: "short", description: "At most 40 words", is_mandatory: true },
    { id: "req-2", title: "Polite", description: "Friendly in tone", type: "optional" }
  ],
  tools: typicalRunRequest.tools,
  models: ["jamba-large"],
  budget: "medium",
  response_language: "unset"
}

const cases = [
  {
    name: "AssistantRunRequest",
    schema: AssistantSchema.AssistantRunRequest as RequestSchema,
    accept: acceptAssistantRunRequest,
    valid: validAssistantRunRequest as fc.Arbitrary<object>,
    edges: runEdges,
    full: {
      input: typicalRunRequest.input,
      output_type: { type: "object" },
      include: ["requirements_result", "requirements_result.metadata"],
      ...settings
    }
  },
  {
    name: "CreateAssistantRequest",
    schema: AssistantSchema.CreateAssistantRequest as RequestSchema,
    accept: acceptCreateAssistantRequest,
    valid: validCreateAssistantRequest as fc.Arbitrary<object>,
    edges: createEdges,
    full: {
      name: "copywriter",
      optimization: "cost",
      assistant_type: "maestro",
      starter_questions: [{ title: "Boots", prompt: "Describe our boots" }],
      description: "Writes product copy",
      avatar: "🥾",
      ...settings,
      workflow_config: { endpoint_url: "https://flow.example.com", headers: { a: "b" }, additional_params: { x: 1 } },
      config_overrides: { temperature: 0.2 }
    }
  }
]

describe.each(cases)("the $name fast path", ({ accept, edges, full, schema, valid }) => {
  const expectSchemaGives = schemaGives(schema)

  it("gives exactly what the schema gives, whenever it accepts a request", () => {
    let accepted = 0
    fc.assert(
      fc.property(
        aroundValid(valid, edges),
        (input) => {
          const value = accept(input)
          if (value === undefined) return
          accepted++
          expectSchemaGives(input, value)
        }
      ),
      { numRuns: 3_000 }
    )
    // the changes keep some requests valid, which the fast path must take as well
    expect(accepted).toBeGreaterThan(300)
  })

  it("accepts every valid request", () =>
    fc.assert(
      fc.property(valid, (request) => {
        const value = accept(request)
        expect(value).toBeDefined()
        expectSchemaGives(request, value)
      }),
      { numRuns: 1_000 }
    ))

  it("gives exactly what the schema gives for a full request with any field added anywhere", () => {
    expect(accept(full)).toBeDefined()
    for (const input of withEachFieldAdded(full)) {
      const value = accept(input)
      if (value !== undefined) expectSchemaGives(input, value)
    }
  })
})
