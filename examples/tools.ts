/**
 * A tool-calling conversation, twice: by hand (create, run the tool, send the assistant message back as
 * it came with the tool's answer) and with `Chat.runTools`, which does the same loop.
 *
 *   npx tsx examples/tools.ts
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Schema } from "effect"
import { Chat, StudioError } from "studio-effect"
import { StudioLive, target } from "./layer.js"

const weatherTool = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "The current weather in a city: sky and temperature in degrees Celsius",
    parameters: {
      type: "object" as const,
      properties: { city: { type: "string", description: "The city, such as Lisbon" } },
      required: ["city"]
    }
  }
}

/** The tool itself: its arguments decoded with a schema, its answer any JSON value. */
const WeatherArguments = Schema.Struct({ city: Schema.String })
const getWeather = (args: unknown) =>
  Effect.try(() => Schema.decodeUnknownSync(WeatherArguments)(args)).pipe(
    Effect.map(({ city }) => ({ city, sky: "sunny", celsius: 21 }))
  )

const question = { role: "user" as const, content: "What is the weather in \"Lisbon\" today?" }

const byHand = Effect.gen(function*() {
  const first = yield* Chat.create({ model: "fpmodel-mini", messages: [question], tools: [weatherTool] })
  const message = first.choices[0]!.message
  const answers = yield* Effect.forEach(
    message.tool_calls ?? [],
    (call) =>
      Effect.map(getWeather(JSON.parse(call.function.arguments)), (answer) => ({
        role: "tool" as const,
        tool_call_id: call.id,
        content: JSON.stringify(answer)
      }))
  )
  // the assistant message goes back exactly as it came (content null, tool_calls as returned)
  const second = yield* Chat.create({
    model: "fpmodel-mini",
    messages: [question, message, ...answers],
    tools: [weatherTool]
  })
  yield* Console.log(`by hand: ${second.choices[0]!.message.content}`)
})

const withRunTools = Effect.gen(function*() {
  const result = yield* Chat.runTools(
    { model: "fpmodel-mini", messages: [question], tools: [weatherTool] },
    { get_weather: getWeather },
    { maxRounds: 4 }
  )
  yield* Console.log(`runTools: ${result.completion.choices[0]!.message.content}`)
  yield* Console.log(`${result.rounds} completions, ${result.messages.length} messages, finished: ${result.finished}`)
})

const program = Effect.gen(function*() {
  yield* Console.log(`Tool calling against ${target}`)
  yield* byHand
  yield* withRunTools
})

NodeRuntime.runMain(program.pipe(Effect.provide(StudioLive)), StudioError.reportInOneLine)
