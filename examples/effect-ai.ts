/**
 * An `effect/ai` program on the Studio chat models: text, a stream, a structured answer and a toolkit
 * round trip (generated, then streamed), written against `LanguageModel` only. `StudioLanguageModel.model`
 * is the one line that picks the provider.
 *
 *   npx tsx examples/effect-ai.ts
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer, Schema, Stream } from "effect"
import { LanguageModel, Prompt, Tool, Toolkit } from "effect/ai"
import { StudioError } from "studio-effect"
import { StudioLanguageModel } from "studio-effect/ai"
import { StudioLive, target } from "./layer.js"

const GetWeather = Tool.make("get_weather", {
  description: "The current weather of a city: its temperature in celsius",
  parameters: Schema.Struct({ city: Schema.String.annotate({ description: "the city, such as Paris" }) }),
  success: Schema.Struct({ city: Schema.String, celsius: Schema.Number })
})

const Weather = Toolkit.make(GetWeather)

const WeatherLive = Weather.toLayer({
  get_weather: ({ city }) => Effect.succeed({ city, celsius: 21 })
})

const Trip = Schema.Struct({
  city: Schema.String,
  days: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 14 })),
  season: Schema.Literals(["spring", "summer", "autumn", "winter"])
}).annotate({ description: "A short city trip" })

/** Writes text as it arrives, with no line break of its own. */
const write = (text: string) => Effect.sync(() => process.stdout.write(text))

const program = Effect.gen(function*() {
  yield* Console.log(`effect/ai LanguageModel against ${target}`)

  const answer = yield* LanguageModel.generateText({ prompt: "Give me three words that describe a calm sea." })
  const { inputTokens, outputTokens } = answer.usage
  yield* Console.log(
    `generateText: ${answer.text} (${answer.finishReason}, ${inputTokens.total} + ${outputTokens.total} tokens)`
  )

  const streamed = yield* LanguageModel.streamText({ prompt: "Tell me about the tides." }).pipe(
    Stream.runFold(
      () => ({ deltas: 0, text: "" }),
      (sum, part) => part.type === "text-delta" ? { deltas: sum.deltas + 1, text: sum.text + part.delta } : sum
    )
  )
  yield* Console.log(`streamText: ${streamed.deltas} text deltas: ${streamed.text}`)

  const trip = yield* LanguageModel.generateObject({
    prompt: "Plan a 3 day trip to \"Lisbon\" in spring.",
    schema: Trip
  })
  yield* Console.log(`generateObject: ${JSON.stringify(trip.value)}`)

  const question = "What is the weather in \"Paris\"?"
  const first = yield* LanguageModel.generateText({ prompt: question, toolkit: Weather })
  for (const result of first.toolResults) {
    yield* Console.log(`tool ${result.name} returned ${JSON.stringify(result.result)}`)
  }
  const final = yield* LanguageModel.generateText({
    prompt: Prompt.concat(Prompt.make(question), Prompt.fromResponseParts(first.content)),
    toolkit: Weather
  })
  yield* Console.log(`final answer: ${final.text}`)

  // the same round trip streamed: LanguageModel runs the handler on the streamed tool call
  const parts = yield* LanguageModel.streamText({ prompt: question, toolkit: Weather }).pipe(Stream.runCollect)
  for (const part of parts) {
    if (part.type === "tool-result") {
      yield* Console.log(`streamed tool ${part.name} returned ${JSON.stringify(part.result)}`)
    }
  }
  yield* write("streamed final answer: ")
  yield* LanguageModel.streamText({
    prompt: Prompt.concat(Prompt.make(question), Prompt.fromResponseParts(parts)),
    toolkit: Weather
  }).pipe(Stream.runForEach((part) => part.type === "text-delta" ? write(part.delta) : Effect.void))
  yield* write("\n")
})

const Studio = StudioLanguageModel.model("fpmodel-mini", { temperature: 0.4 })

NodeRuntime.runMain(
  program.pipe(Effect.provide(WeatherLive), Effect.provide(Layer.provide(Studio, StudioLive))),
  StudioError.reportInOneLine
)
