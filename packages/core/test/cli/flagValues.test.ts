/**
 * A command's flags as the request builders take them: an optional flag is its value or `undefined`, every
 * other flag is passed through as parsed.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { flagValues } from "../../src/cli/flagValues.js"

describe("flagValues", () => {
  it("gives an optional flag's value, undefined when it is absent, and the other flags as they are", () => {
    expect(flagValues({
      model: { _tag: "Some" as const, value: "fpmodel-mini" },
      system: { _tag: "None" as const },
      stop: ["END"],
      jsonMode: false,
      count: 0
    })).toStrictEqual({ model: "fpmodel-mini", system: undefined, stop: ["END"], jsonMode: false, count: 0 })
  })

  it("keeps any value that is not an optional flag, objects with a _tag of their own included", () => {
    fc.assert(fc.property(
      fc.dictionary(
        fc.string(),
        fc.oneof(fc.anything(), fc.record({ _tag: fc.string().filter((tag) => tag !== "Some" && tag !== "None") }))
      ),
      (flags) => {
        const values: Record<string, unknown> = flagValues(flags)
        for (const [name, value] of Object.entries(flags)) {
          const optional = typeof value === "object" && value !== null && "_tag" in value &&
            (value._tag === "None" || (value._tag === "Some" && "value" in value))
          if (!optional) expect(values[name]).toBe(value)
        }
      }
    ))
  })
})
