/**
 * The provider with hostile tools: names that break the service's rules (huge, with terminal controls, with
 * JSON-breaking characters), parameter schemas nested deeply, and huge descriptions. Each call ends with a
 * typed error whose message stays within a bound and carries no control a terminal would obey, or succeeds.
 */
import {
  describe,
  Effect,
  expect,
  isFailure,
  it,
  LanguageModel,
  outcome,
  Schema,
  Tool,
  Toolkit,
  toolParameters
} from "@studio-effect/line"
import { StudioLanguageModel } from "studio-effect/ai"
import * as Reference from "studio-effect/reference"

const studio = StudioLanguageModel.model("fpmodel-mini").pipe(
  (layer) => layer
)

const controls = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/

/** A struct nested `depth` levels deep around a string. */
const nested = (depth: number): unknown => {
  let schema: any = Schema.String
  for (let i = 0; i < depth; i++) schema = Schema.Struct({ inner: schema })
  return schema
}

const cases: ReadonlyArray<readonly [string, string, unknown, string]> = [
  ["a name of 100,000 characters", "t".repeat(100_000), toolParameters({ q: Schema.String }), "d"],
  ["a name holding terminal controls", "x\u001b]52;c;AAAA\u0007\u009b2J", toolParameters({ q: Schema.String }), "d"],
  ["a name holding quotes and a NUL", "a\"b\\c\u0000", toolParameters({ q: Schema.String }), "d"],
  ["a schema nested 2,000 levels", "deep", toolParameters({ q: nested(2_000) as any }), "d"],
  ["a description of 1 MiB", "big", toolParameters({ q: Schema.String }), "d".repeat(1024 * 1024)]
]

describe("the provider with hostile tools", () => {
  for (const [title, name, parameters, description] of cases) {
    it.effect(`${title}: a typed error of bounded size without controls, or an answer`, () =>
      Effect.gen(function*() {
        const hostile = Tool.make(name, { description, parameters: parameters as any })
        const toolkit = Toolkit.make(hostile)
        const result = yield* outcome(
          LanguageModel.generateText({ prompt: "use the tool", toolkit: toolkit as any }).pipe(
            Effect.provide(toolkit.toLayer({ [name]: () => Effect.succeed("ok") } as any)),
            Effect.provide(studio),
            Effect.provide(Reference.layerClient({ client: { maxRetries: 0 } }))
          )
        )
        if (title.startsWith("a schema")) expect(isFailure(result)).toBe(true)
        if (isFailure(result)) {
          const message = String((result.failure as { readonly message: unknown }).message)
          expect(message.length).toBeLessThanOrEqual(4_000)
          expect(controls.test(message)).toBe(false)
        }
      }), 60_000)
  }
})
