/**
 * `StudioLanguageModel` over a real socket: the reference service listening on 127.0.0.1, called through
 * each of the line's HTTP transports (fetch, `NodeHttpClient`'s undici, and on Effect 3 `studio-effect/undici`),
 * with text, a stream, structured output and a toolkit round trip (generated, and streamed).
 */
import {
  collect,
  concatPrompts,
  describe,
  Effect,
  expect,
  fold,
  it,
  LanguageModel,
  Layer,
  Prompt,
  Redacted,
  Schema,
  Tool,
  Toolkit,
  toolParameters,
  transportLayers
} from "@studio-effect/line"
import { StudioClient } from "studio-effect"
import { StudioLanguageModel } from "studio-effect/ai"
import * as Reference from "studio-effect/reference"

const Lookup = Tool.make("lookup_population", {
  description: "The population of a city",
  parameters: toolParameters({ city: Schema.String }),
  success: Schema.Number
})

const Census = Toolkit.make(Lookup)
const CensusLive = Census.toLayer({ lookup_population: ({ city }) => Effect.succeed(city === "Oslo" ? 709_000 : 0) })

const Answer = Schema.Struct({ city: Schema.String, large: Schema.Boolean })

for (const [name, transport] of transportLayers) {
  describe(`StudioLanguageModel over a socket with ${name}`, () => {
    it.live("generateText, streamText, generateObject and a toolkit round trip, generated and streamed", () =>
      Effect.gen(function*() {
        const server = yield* Reference.listen({ apiKeys: ["socket-key"] })
        const studio = Layer.provide(
          StudioLanguageModel.model("fpmodel-mini", { temperature: 0 }),
          StudioClient.layer({ apiKey: Redacted.make("socket-key"), baseUrl: server.url }).pipe(
            Layer.orDie,
            Layer.provide(transport)
          )
        )
        yield* Effect.gen(function*() {
          const text = yield* LanguageModel.generateText({ prompt: "Tell me about the tides" })
          expect(text.text).toMatch(/reference service/)
          expect(text.finishReason).toBe("stop")

          const streamed = yield* LanguageModel.streamText({ prompt: "Tell me about the tides" }).pipe(
            fold("", (all, part) => part.type === "text-delta" ? all + part.delta : all)
          )
          expect(streamed).toBe(text.text)

          const object = yield* LanguageModel.generateObject({ prompt: "Is \"Oslo\" large?", schema: Answer })
          expect(object.value.city).toBe("Oslo")

          const question = "What is the population of \"Oslo\"?"
          const first = yield* LanguageModel.generateText({ prompt: question, toolkit: Census })
          expect(first.toolResults.map((result) => result.result)).toEqual([709_000])
          const final = yield* LanguageModel.generateText({
            prompt: concatPrompts(Prompt.make(question), Prompt.fromResponseParts(first.content)),
            toolkit: Census
          })
          expect(final.finishReason).toBe("stop")
          expect(final.text).toContain("The lookup_population tool returned: 709000")

          // streamed with the toolkit: the handler runs, and the conversation goes on from the streamed parts
          const streamedFirst = yield* LanguageModel.streamText({ prompt: question, toolkit: Census }).pipe(collect)
          expect(streamedFirst.flatMap((part) => part.type === "tool-result" ? [part.result] : [])).toEqual([709_000])
          const streamedFinal = yield* LanguageModel.streamText({
            prompt: concatPrompts(Prompt.make(question), Prompt.fromResponseParts(streamedFirst)),
            toolkit: Census
          }).pipe(fold("", (all, part) => part.type === "text-delta" ? all + part.delta : all))
          expect(streamedFinal).toBe(final.text)
        }).pipe(Effect.provide(CensusLive), Effect.provide(studio))
      }))
  })
}
