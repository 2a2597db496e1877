/**
 * The reference model in JSON mode: a system message that ends with a JSON Schema after "JSON Schema:" (as
 * `generateObject` writes it) gets a value of that schema; without one, the answer stays `{"answer": ...}`.
 */
import { describe, Effect, expect, it } from "@studio-effect/line"
import { Ajv } from "ajv"
import * as fc from "fast-check"
import { Chat } from "studio-effect"
import * as Reference from "studio-effect/reference"

const answer = (system: string, user: string) =>
  Effect.runPromise(
    Chat.create({
      model: "fpmodel-mini",
      messages: [{ role: "system", content: system }, { role: "user", content: user }],
      response_format: { type: "json_object" },
      temperature: 0
    }).pipe(
      Effect.map((completion) => JSON.parse(completion.choices[0]?.message.content ?? "null") as unknown),
      Effect.provide(Reference.layerClient())
    )
  )

/** JSON Schemas of flat objects, with the keywords the reference model honours. */
const property = fc.oneof(
  fc.record({
    type: fc.constant("string"),
    minLength: fc.integer({ min: 0, max: 5 }),
    maxLength: fc.integer({ min: 5, max: 40 })
  }),
  fc.record({
    type: fc.constant("integer"),
    minimum: fc.integer({ min: -50, max: 0 }),
    maximum: fc.integer({ min: 1, max: 99 })
  }),
  fc.record({ type: fc.constant("number"), minimum: fc.integer({ min: 2, max: 10 }) }),
  fc.record({ type: fc.constant("boolean") }),
  fc.record({
    type: fc.constant("string"),
    enum: fc.uniqueArray(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 4 })
  }),
  fc.record({
    type: fc.constant("array"),
    items: fc.constant({ type: "string" }),
    minItems: fc.integer({ min: 1, max: 3 })
  })
)
const objectSchema = fc.dictionary(fc.stringMatching(/^[a-z][a-z_]{0,10}$/), property, { minKeys: 1, maxKeys: 6 }).map((
  properties
) => ({ type: "object", properties, required: Object.keys(properties), additionalProperties: false }))

describe("the reference model in JSON mode", () => {
  it("answers a value of the JSON Schema the system message ends with", async () => {
    const ajv = new Ajv()
    await fc.assert(
      fc.asyncProperty(objectSchema, fc.string({ maxLength: 60 }), async (schema, question) => {
        const value = await answer(
          `Answer with a single JSON value.\nIt must be valid against this JSON Schema:\n${JSON.stringify(schema)}`,
          question === "" ? "hello" : question
        )
        expect(ajv.validate(schema, value), JSON.stringify({ value, errors: ajv.errors })).toBe(true)
      }),
      { numRuns: 80 }
    )
  })

  it("takes values from the question where it can", async () => {
    const value = await answer(
      "JSON Schema:\n" + JSON.stringify({
        type: "object",
        properties: { city: { type: "string" }, size: { type: "string", enum: ["small", "large"] } }
      }),
      "Is \"Oslo\" a large city?"
    )
    expect(value).toEqual({ city: "Oslo", size: "large" })
  })

  it("answers {\"answer\": ...} without a schema, or when what follows the words is not a JSON object", async () => {
    for (const system of ["Be brief.", "JSON Schema: none yet", "JSON Schema: [1, 2]"]) {
      const value = await answer(system, "hello")
      expect(Object.keys(value as object)).toEqual(["answer"])
    }
  })
})
