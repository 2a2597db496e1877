/**
 * What the `StudioLanguageModel` tests share, the conformance suite's and each line's own (the AI error
 * shapes): a model that records its requests, the Studio chat model over an in-memory reference service, and
 * a weather toolkit.
 */
import {
  annotate,
  Effect,
  intBetween,
  Layer,
  literals,
  Schema,
  Tool,
  Toolkit,
  toolParameters
} from "@studio-effect/line"
import { StudioLanguageModel } from "studio-effect/ai"
import * as Reference from "studio-effect/reference"

type ModelRequest = Reference.Model.ModelRequest

/** A model that records every request it is asked, then answers like `answer` (the built-in model by default). */
export const recording = (answer: Reference.Model.Model = Reference.Model.builtIn) => {
  const requests: Array<ModelRequest> = []
  const model: Reference.Model.Model = (request, context) => {
    requests.push(request)
    return answer(request, context)
  }
  return { requests, model }
}

/** A Studio chat model over a fresh in-memory reference service. */
export const studio = (
  service: Reference.ReferenceOptions = {},
  config?: Omit<StudioLanguageModel.Config.Service, "model">
) =>
  Layer.provide(
    StudioLanguageModel.model("fpmodel-mini", config),
    Reference.layerClient({ ...service, client: { maxRetries: 0 } })
  )

export const GetWeather = Tool.make("get_weather", {
  description: "The current weather of a city: its temperature and the sky",
  parameters: toolParameters({
    city: annotate(Schema.String, { description: "the city, such as Paris" }),
    unit: annotate(literals(["celsius", "fahrenheit"]), { description: "the temperature unit" })
  }),
  success: Schema.Struct({ city: Schema.String, temperature: Schema.Number, unit: Schema.String })
})

export const Weather = Toolkit.make(GetWeather)

/** The handler records the parameters it was called with: they arrive decoded by the tool's schema. */
export const weatherHandled = (calls: Array<unknown>) =>
  Weather.toLayer({
    get_weather: (params) =>
      Effect.sync(() => {
        calls.push(params)
        return { city: params.city, temperature: params.unit === "celsius" ? 21 : 70, unit: params.unit }
      })
  })

export const question = "What is the weather in \"Paris\" in celsius?"

/** A city and a few facts about it, as `generateObject` is asked for. */
export const City = annotate(
  Schema.Struct({
    name: annotate(Schema.String, { description: "the name of the city" }),
    country: Schema.String,
    population: intBetween(1, 40_000_000),
    coastal: Schema.Boolean,
    size: literals(["small", "large"])
  }),
  { identifier: "City", description: "A city and a few facts about it" }
)
