/**
 * `StudioLanguageModel` over a real socket: the reference service listening on 127.0.0.1, called through
 * both HTTP transports (fetch and `NodeHttpClient`'s undici), with text, a stream, structured output and a
 * toolkit round trip (generated, and streamed).
 */
import { describe, expect, it } from "@effect/vitest"
import * as LanguageModel from "effect/ai/LanguageModel"
import * as Prompt from "effect/ai/Prompt"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { StudioLanguageModel } from "../../src/ai/index.js"
import * as Reference from "../../src/reference/index.js"
import * as StudioClient from "../../src/StudioClient.js"
import { transportLayers } from "../line/index.js"

const Lookup = Tool.make("lookup_population", {
  description: "The population of a city",
  parameters: Schema.Struct({ city: Schema.String }),
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
            Stream.runFold(() => "", (all, part) => part.type === "text-delta" ? all + part.delta : all)
          )
          expect(streamed).toBe(text.text)

          const object = yield* LanguageModel.generateObject({ prompt: "Is \"Oslo\" large?", schema: Answer })
          expect(object.value.city).toBe("Oslo")

          const question = "What is the population of \"Oslo\"?"
          const first = yield* LanguageModel.generateText({ prompt: question, toolkit: Census })
          expect(first.toolResults.map((result) => result.result)).toEqual([709_000])
          const final = yield* LanguageModel.generateText({
            prompt: Prompt.concat(Prompt.make(question), Prompt.fromResponseParts(first.content)),
            toolkit: Census
          })
          expect(final.finishReason).toBe("stop")
          expect(final.text).toContain("The lookup_population tool returned: 709000")

          // streamed with the toolkit: the handler runs, and the conversation goes on from the streamed parts
          const streamedFirst = yield* LanguageModel.streamText({ prompt: question, toolkit: Census }).pipe(
            Stream.runCollect
          )
          expect(streamedFirst.flatMap((part) => part.type === "tool-result" ? [part.result] : [])).toEqual([709_000])
          const streamedFinal = yield* LanguageModel.streamText({
            prompt: Prompt.concat(Prompt.make(question), Prompt.fromResponseParts(streamedFirst)),
            toolkit: Census
          }).pipe(Stream.runFold(() => "", (all, part) => part.type === "text-delta" ? all + part.delta : all))
          expect(streamedFinal).toBe(final.text)
        }).pipe(Effect.provide(CensusLive), Effect.provide(studio))
      }))
  })
}
