/**
 * `StudioLanguageModel` against the reference service in memory: `LanguageModel` programs written for any
 * provider of the line's AI modules (text, streams, structured output, toolkits), the chat requests they
 * become, and the spans. The AI errors each line's modules shape their own way are tested in each line's
 * `test/ai/language-model.test.ts`.
 */
import {
  collect,
  concatPrompts,
  describe,
  Effect,
  expect,
  Fiber,
  fold,
  fork,
  it,
  LanguageModel,
  Layer,
  makeRecording,
  Prompt,
  providerAttribute,
  recordParents,
  responseIds,
  responseKeepsWrittenParams,
  Schema,
  Stream,
  TestClock,
  tokenCounts,
  Tool,
  Toolkit,
  toolParameters
} from "@studio-effect/line"
import { Chat } from "studio-effect"
import { StudioLanguageModel } from "studio-effect/ai"
import * as Reference from "studio-effect/reference"
import { City, GetWeather, question, recording, studio, Weather, weatherHandled } from "./support.js"

/** Lets the in-memory service and its client run to their next wait (no time passes on any clock). */
const settle = Effect.forEach(
  Array.from({ length: 20 }),
  () => Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve))),
  { discard: true }
)

describe("StudioLanguageModel.generateText", () => {
  it.effect("answers with the service's text, finish reason and usage, as Chat.create does", () =>
    Effect.gen(function*() {
      const response = yield* LanguageModel.generateText({ prompt: "Tell me about the tides" })
      const completion = yield* Chat.create({
        model: "fpmodel-mini",
        messages: [{ role: "user", content: "Tell me about the tides" }],
        temperature: 0
      }).pipe(Effect.provide(Reference.layerClient()))
      expect(response.text).toBe(completion.choices[0]?.message.content)
      expect(response.text).toMatch(/reference service/)
      expect(response.finishReason).toBe("stop")
      expect(tokenCounts(response.usage)).toEqual({
        input: completion.usage.prompt_tokens,
        output: completion.usage.completion_tokens,
        total: completion.usage.total_tokens
      })
      const metadata = response.content.find((part) => part.type === "response-metadata")
      expect(metadata).toBeDefined()
      const ids = responseIds(metadata!)
      expect(ids.modelId).toBe("fpmodel-mini")
      expect(ids.id).toMatch(/^chat-/)
    }).pipe(Effect.provide(studio({}, { temperature: 0 }))))

  it.effect("sends system, user, assistant, tool-call and tool-result parts as the chat messages", () => {
    const { model, requests } = recording()
    return Effect.gen(function*() {
      yield* LanguageModel.generateText({
        prompt: Prompt.make([
          { role: "system", content: "Be brief." },
          { role: "user", content: [{ type: "text", text: "Weather in Paris?" }, { type: "text", text: "Celsius." }] },
          {
            role: "assistant",
            content: [
              { type: "text", text: "Let me look." },
              { type: "tool-call", id: "call_1", name: "get_weather", params: { city: "Paris", unit: "celsius" } }
            ]
          },
          {
            role: "tool",
            content: [{
              type: "tool-result",
              id: "call_1",
              name: "get_weather",
              isFailure: false,
              result: { temperature: 21 },
              providerExecuted: false
            }]
          }
        ])
      })
      expect(requests[0]?.messages).toEqual([
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris?\nCelsius." },
        {
          role: "assistant",
          content: "Let me look.",
          tool_calls: [{
            id: "call_1",
            type: "function",
            function: { name: "get_weather", arguments: "{\"city\":\"Paris\",\"unit\":\"celsius\"}" }
          }]
        },
        { role: "tool", tool_call_id: "call_1", content: "{\"temperature\":21}" }
      ])
    }).pipe(Effect.provide(studio({ model })))
  })

  it.effect("max_tokens ends the answer with finish reason length", () =>
    Effect.gen(function*() {
      const response = yield* LanguageModel.generateText({ prompt: "Tell me about the tides" })
      expect(response.finishReason).toBe("length")
      expect(tokenCounts(response.usage).output).toBe(3)
    }).pipe(Effect.provide(studio({}, { max_tokens: 3 }))))

  it.effect("the model's config, then withConfigOverride, set the chat parameters of the request", () => {
    const { model, requests } = recording()
    return Effect.gen(function*() {
      yield* LanguageModel.generateText({ prompt: "Tell me about the tides" })
      yield* LanguageModel.generateText({ prompt: "Tell me about the tides" }).pipe(
        StudioLanguageModel.withConfigOverride({ temperature: 1.5, stop: ["\n"] }),
        StudioLanguageModel.withConfigOverride({ model: "fpmodel-large", max_tokens: 10 })
      )
      // given as a list in the config, sent as the map the service defines
      const documents = [{ content: "The tides follow the moon.", metadata: { title: "Tides" } }]
      expect(requests[0]).toEqual({
        model: "fpmodel-mini",
        messages: [{ role: "user", content: "Tell me about the tides" }],
        temperature: 0.2,
        top_p: 0.9,
        max_tokens: 200,
        documents,
        response_format: { type: "text" }
      })
      expect(requests[1]).toEqual({
        model: "fpmodel-large",
        messages: [{ role: "user", content: "Tell me about the tides" }],
        temperature: 1.5,
        top_p: 0.9,
        max_tokens: 10,
        stop: ["\n"],
        documents,
        response_format: { type: "text" }
      })
    }).pipe(Effect.provide(studio({ model }, {
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 200,
      documents: [{ content: "The tides follow the moon.", metadata: [{ key: "title", value: "Tides" }] }],
      response_format: { type: "text" }
    })))
  })

  it.effect("with n above 1 the first choice is the response and every choice is in the finish metadata", () =>
    Effect.gen(function*() {
      const response = yield* LanguageModel.generateText({ prompt: "Tell me about the tides" })
      const finish = response.content.find((part) => part.type === "finish")
      const choices = finish === undefined ? [] : StudioLanguageModel.finishChoices(finish)
      expect(choices.map((choice) => choice.index)).toEqual([0, 1, 2])
      expect(choices[0]?.content).toBe(response.text)
      expect(new Set(choices.map((choice) => choice.content)).size).toBe(3)
    }).pipe(Effect.provide(studio({}, { n: 3, temperature: 0.8 }))))

  it.effect("a program written against LanguageModel runs on the model given as a layer", () => {
    const program = LanguageModel.generateText({ prompt: "Tell me about the tides" })
    return Effect.gen(function*() {
      const response = yield* program
      expect(response.text).toMatch(/Tell me about the tides/)
    }).pipe(
      Effect.provide(
        StudioLanguageModel.layer({ model: "fpmodel-large" }).pipe(Layer.provide(Reference.layerClient()))
      )
    )
  })
})

describe("StudioLanguageModel.streamText", () => {
  it.effect("streams text deltas as they arrive, then a finish part with the usage", () =>
    Effect.gen(function*() {
      const parts = yield* LanguageModel.streamText({ prompt: "Tell me about the tides" }).pipe(collect)
      const whole = yield* LanguageModel.generateText({ prompt: "Tell me about the tides" })
      const types = parts.map((part) => part.type)
      expect(types[0]).toBe("response-metadata")
      expect(types[1]).toBe("text-start")
      expect(types.slice(-2)).toEqual(["text-end", "finish"])
      const deltas = parts.flatMap((part) => part.type === "text-delta" ? [part.delta] : [])
      expect(deltas.length).toBeGreaterThan(10)
      expect(deltas.join("")).toBe(whole.text)
      const finish = parts[parts.length - 1]
      expect(finish?.type === "finish" && finish.reason).toBe("stop")
      expect(finish?.type === "finish" && finish.usage).toEqual(whole.usage)
    }).pipe(Effect.provide(studio({}, { temperature: 0 }))))

  it.effect("hands each delta on before the service has generated the rest", () =>
    Effect.gen(function*() {
      const seen: Array<string> = []
      const fiber = yield* LanguageModel.streamText({ prompt: "Tell me about the tides" }).pipe(
        Stream.runForEach((part) => Effect.sync(() => seen.push(part.type))),
        fork
      )
      // the service pauses a second between events: two seconds in, only the first few have been sent
      yield* settle
      yield* TestClock.adjust("2 seconds")
      yield* settle
      expect(seen).toContain("text-delta")
      expect(seen).not.toContain("finish")
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      expect(seen[seen.length - 1]).toBe("finish")
    }).pipe(Effect.provide(studio({ streamEventDelay: "1 second" }))))

  it.effect("with a toolkit it makes the one call the service allows and streams its parts; the handler runs", () => {
    const { model, requests } = recording()
    const calls: Array<unknown> = []
    return Effect.gen(function*() {
      const first = yield* LanguageModel.streamText({ prompt: question, toolkit: Weather }).pipe(collect)
      expect(requests).toHaveLength(1)
      expect(requests[0]?.stream).toBeUndefined()
      expect(requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(["get_weather"])
      expect(first.map((part) => part.type)).toEqual(["response-metadata", "tool-call", "tool-result", "finish"])
      expect(calls).toEqual([{ city: "Paris", unit: "celsius" }])
      const result = first.find((part) => part.type === "tool-result")
      expect(result?.type === "tool-result" && result.result).toEqual({
        city: "Paris",
        temperature: 21,
        unit: "celsius"
      })
      const finish = first[first.length - 1]
      expect(finish?.type === "finish" && finish.reason).toBe("tool-calls")

      // the conversation goes on from the streamed parts, as it does from any provider's
      const conversation = concatPrompts(Prompt.make(question), Prompt.fromResponseParts(first))
      const second = yield* LanguageModel.streamText({ prompt: conversation, toolkit: Weather }).pipe(collect)
      const whole = yield* LanguageModel.generateText({ prompt: conversation, toolkit: Weather })
      expect(second.map((part) => part.type)).toEqual([
        "response-metadata",
        "text-start",
        "text-delta",
        "text-end",
        "finish"
      ])
      const text = second.flatMap((part) => part.type === "text-delta" ? [part.delta] : []).join("")
      expect(text).toContain("The get_weather tool returned: {\"city\":\"Paris\",\"temperature\":21")
      expect(text).toBe(whole.text)
      const end = second[second.length - 1]
      expect(end?.type === "finish" && end.reason).toBe("stop")
      expect(end?.type === "finish" && end.usage).toEqual(whole.usage)
      expect(calls).toHaveLength(1)
    }).pipe(Effect.provide(weatherHandled(calls)), Effect.provide(studio({ model }, { temperature: 0 })))
  })

  it.effect("with n above 1, which the service cannot stream either, it streams the first choice of one call", () => {
    const { model, requests } = recording()
    return Effect.gen(function*() {
      const parts = yield* LanguageModel.streamText({ prompt: "Tell me about the tides" }).pipe(collect)
      // the reference model answers each choice apart; none of them was streamed
      expect(requests.map((request) => request.stream)).toEqual([undefined, undefined, undefined])
      const text = parts.flatMap((part) => part.type === "text-delta" ? [part.delta] : []).join("")
      const finish = parts[parts.length - 1]
      const choices = finish?.type === "finish" ? StudioLanguageModel.finishChoices(finish) : []
      expect(choices.map((choice) => choice.index)).toEqual([0, 1, 2])
      expect(choices[0]?.content).toBe(text)
      expect(text).toMatch(/tides/)
    }).pipe(Effect.provide(studio({ model }, { n: 3, temperature: 0.8 })))
  })

  it.effect("with a toolkit and toolChoice none it streams, and the request carries no tools", () => {
    const { model, requests } = recording()
    return Effect.gen(function*() {
      const text = yield* LanguageModel.streamText({ prompt: question, toolkit: Weather, toolChoice: "none" }).pipe(
        fold("", (all, part) => part.type === "text-delta" ? all + part.delta : all)
      )
      expect(text).toMatch(/Paris/)
      expect(requests[0]?.tools).toBeUndefined()
      expect(requests[0]?.stream).toBe(true)
    }).pipe(Effect.provide(weatherHandled([])), Effect.provide(studio({ model })))
  })
})

describe("StudioLanguageModel.generateObject", () => {
  it.effect("asks for JSON with the schema in the prompt and decodes the answer by the schema", () => {
    const { model, requests } = recording()
    return Effect.gen(function*() {
      const response = yield* LanguageModel.generateObject({
        prompt: "Describe \"Lisbon\", a large city",
        schema: City,
        objectName: "city"
      })
      expect(Schema.is(City)(response.value)).toBe(true)
      expect(response.value.size).toBe("large")
      const request = requests[0]!
      expect(request.response_format).toEqual({ type: "json_object" })
      const instruction = request.messages[0]!
      expect(instruction.role).toBe("system")
      expect(instruction.content).toMatch(/named "city"/)
      expect(instruction.content).toMatch(/A city and a few facts about it/)
      expect(instruction.content).toMatch(/"population"/)
      expect(request.messages[1]).toEqual({ role: "user", content: "Describe \"Lisbon\", a large city" })
    }).pipe(Effect.provide(studio({ model })))
  })
})

describe("StudioLanguageModel with a toolkit", () => {
  it.effect("sends the tools, decodes the call by the tool's schema, runs the handler, and reaches an answer", () => {
    const { model, requests } = recording()
    const calls: Array<unknown> = []
    return Effect.gen(function*() {
      const first = yield* LanguageModel.generateText({ prompt: question, toolkit: Weather })
      expect(requests[0]?.tools).toEqual([{
        type: "function",
        function: {
          name: "get_weather",
          description: "The current weather of a city: its temperature and the sky",
          parameters: Tool.getJsonSchema(GetWeather)
        }
      }])
      expect(first.finishReason).toBe("tool-calls")
      expect(first.toolCalls.map((call) => [call.name, call.params])).toEqual([
        ["get_weather", { city: "Paris", unit: "celsius" }]
      ])
      expect(calls).toEqual([{ city: "Paris", unit: "celsius" }])
      expect(first.toolResults.map((result) => result.result)).toEqual([
        { city: "Paris", temperature: 21, unit: "celsius" }
      ])

      const conversation = concatPrompts(Prompt.make(question), Prompt.fromResponseParts(first.content))
      const second = yield* LanguageModel.generateText({ prompt: conversation, toolkit: Weather })
      expect(second.finishReason).toBe("stop")
      expect(second.toolCalls).toHaveLength(0)
      expect(second.text).toContain("The get_weather tool returned: {\"city\":\"Paris\",\"temperature\":21")
      const callId = first.toolCalls[0]!.id
      expect(requests[1]?.messages.slice(1)).toEqual([
        {
          role: "assistant",
          tool_calls: [{
            id: callId,
            type: "function",
            function: { name: "get_weather", arguments: "{\"city\":\"Paris\",\"unit\":\"celsius\"}" }
          }]
        },
        { role: "tool", tool_call_id: callId, content: "{\"city\":\"Paris\",\"temperature\":21,\"unit\":\"celsius\"}" }
      ])
    }).pipe(Effect.provide(weatherHandled(calls)), Effect.provide(studio({ model })))
  })

  it.effect("the handler gets the arguments decoded by the tool's schema, not as the model wrote them", () => {
    const Forecast = Tool.make("forecast", {
      description: "The forecast of a city for a number of days",
      parameters: toolParameters({ city: Schema.String, days: Schema.NumberFromString }),
      success: Schema.String
    })
    const Forecasts = Toolkit.make(Forecast)
    const received: Array<unknown> = []
    return Effect.gen(function*() {
      const response = yield* LanguageModel.generateText({ prompt: "Forecast for Oslo, 3 days", toolkit: Forecasts })
      expect(received).toEqual([{ city: "Oslo", days: 3 }])
      // the response's tool call keeps the arguments as the model wrote them, or holds them decoded too
      expect(response.toolCalls[0]?.params).toEqual({ city: "Oslo", days: responseKeepsWrittenParams ? "3" : 3 })
    }).pipe(
      Effect.provide(Forecasts.toLayer({
        forecast: (params) => Effect.sync(() => (received.push(params), `${params.days} days of sun`))
      })),
      Effect.provide(studio({ model: [{ toolCalls: [{ name: "forecast", arguments: { city: "Oslo", days: "3" } }] }] }))
    )
  })

  it.effect("toolChoice none sends no tools", () => {
    const { model, requests } = recording()
    return Effect.gen(function*() {
      const none = yield* LanguageModel.generateText({ prompt: question, toolkit: Weather, toolChoice: "none" })
      expect(none.finishReason).toBe("stop")
      expect(requests[0]?.tools).toBeUndefined()
      expect(requests).toHaveLength(1)
    }).pipe(Effect.provide(weatherHandled([])), Effect.provide(studio({ model })))
  })

  it.effect("toolChoice oneOf sends only the tools it names, and streamText keeps to them too", () => {
    const { model, requests } = recording()
    const GetTime = Tool.make("get_time", {
      description: "The local time of a city",
      parameters: toolParameters({ city: Schema.String }),
      success: Schema.String
    })
    const Both = Toolkit.make(GetWeather, GetTime)
    const times: Array<unknown> = []
    return Effect.gen(function*() {
      const generated = yield* LanguageModel.generateText({
        prompt: question,
        toolkit: Both,
        toolChoice: { oneOf: ["get_time"] }
      })
      const streamed = yield* LanguageModel.streamText({
        prompt: question,
        toolkit: Both,
        toolChoice: { oneOf: ["get_time"] }
      }).pipe(collect)
      expect(requests.map((request) => request.tools?.map((tool) => tool.function.name))).toEqual([
        ["get_time"],
        ["get_time"]
      ])
      expect(generated.toolCalls.map((call) => call.name)).toEqual(["get_time"])
      expect(Array.from(streamed).flatMap((part) => part.type === "tool-result" ? [part.name] : [])).toEqual([
        "get_time"
      ])
      expect(times).toEqual([{ city: "Paris" }, { city: "Paris" }])
    }).pipe(
      Effect.provide(Both.toLayer({
        get_weather: () => Effect.die("not offered"),
        get_time: (params) => Effect.sync(() => (times.push(params), "noon"))
      })),
      Effect.provide(studio({ model }))
    )
  })
})

describe("StudioLanguageModel GenAI spans", () => {
  it.effect("the LanguageModel spans carry the GenAI annotations of the request and the answer", () => {
    const { recording: recorded, layer } = makeRecording()
    return Effect.gen(function*() {
      const response = yield* LanguageModel.generateText({ prompt: "Tell me about the tides" })
      yield* LanguageModel.streamText({ prompt: "Tell me about the tides" }).pipe(Stream.runDrain)
      // n above 1 is streamed from one call the service allows; its span is annotated the same way
      yield* LanguageModel.streamText({ prompt: "Tell me about the tides" }).pipe(
        Stream.runDrain,
        StudioLanguageModel.withConfigOverride({ n: 2, temperature: 0.5 })
      )
      const [generate, streamed, unstreamed] = ["LanguageModel.generateText", "LanguageModel.streamText"].flatMap(
        (name) => recorded.spans.filter((span) => span.name === name)
      )
      expect(unstreamed?.attributes.get("gen_ai.request.temperature")).toBe(0.5)
      expect(unstreamed?.attributes.get("gen_ai.response.finish_reasons")).toEqual(["stop", "stop"])
      expect(unstreamed?.attributes.get("gen_ai.response.id")).toMatch(/^chat-/)
      for (const span of [generate!, streamed!]) {
        expect(span.attributes.get(providerAttribute)).toBe("studio")
        expect(span.attributes.get("gen_ai.operation.name")).toBe("chat")
        expect(span.attributes.get("gen_ai.request.model")).toBe("fpmodel-mini")
        expect(span.attributes.get("gen_ai.request.temperature")).toBe(0)
        expect(span.attributes.get("gen_ai.request.max_tokens")).toBe(100)
        expect(span.attributes.get("gen_ai.response.finish_reasons")).toEqual(["stop"])
        expect(span.attributes.get("gen_ai.usage.input_tokens")).toBe(tokenCounts(response.usage).input)
        expect(span.attributes.get("gen_ai.usage.output_tokens")).toBe(tokenCounts(response.usage).output)
        expect(span.attributes.get("gen_ai.response.id")).toMatch(/^chat-/)
      }
    }).pipe(Effect.provide(studio({}, { temperature: 0, max_tokens: 100 })), Effect.provide(layer))
  })
})

describe("StudioLanguageModel spans", () => {
  it.effect("the SDK's request spans are children of LanguageModel's, streamed or not", () => {
    const { parentOf, tracer } = recordParents()
    return Effect.gen(function*() {
      yield* LanguageModel.generateText({ prompt: "Tell me about the tides" })
      yield* LanguageModel.streamText({ prompt: "Tell me about the tides" }).pipe(Stream.runDrain)
      expect(parentOf.get("studio.chat.create")).toBe("LanguageModel.generateText")
      expect(parentOf.get("studio.chat.stream")).toBe("LanguageModel.streamText")
      // with a toolkit, the one call the service allows is made under the stream's span
      yield* LanguageModel.streamText({ prompt: question, toolkit: Weather }).pipe(Stream.runDrain)
      expect(parentOf.get("studio.chat.create")).toBe("LanguageModel.streamText")
    }).pipe(Effect.provide(weatherHandled([])), Effect.provide(studio()), Effect.withTracer(tracer))
  })
})
