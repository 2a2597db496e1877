import { describe, Effect, expect, it } from "@studio-effect/line"
import AjvModule from "ajv"
import * as Reference from "studio-effect/reference"
import { call, events } from "./support.js"

const Ajv = (AjvModule as any).default ?? AjvModule
const ajv = new Ajv({ strict: false })

const chat = (body: Record<string, unknown>) =>
  Effect.map(
    call("POST", "/studio/v1/chat/completions", { body: { model: "fpmodel-mini", ...body } }),
    (answer) => {
      expect(answer.status, answer.text).toBe(200)
      return answer.json
    }
  )

const ask = (content: string) => [{ role: "user", content }]

const inService = <A, E>(effect: Effect.Effect<A, E, any>, options: Reference.ReferenceOptions = {}) =>
  Effect.provide(effect, Reference.layer(options)) as Effect.Effect<A, E>

describe("the built-in model honours every chat parameter", () => {
  it.effect("max_tokens truncates with finish_reason length and counts exactly max_tokens", () =>
    inService(Effect.gen(function*() {
      const full = yield* chat({ messages: ask("Tell me about rivers"), temperature: 0 })
      const cut = yield* chat({ messages: ask("Tell me about rivers"), temperature: 0, max_tokens: 4 })
      expect(full.choices[0].finish_reason).toBe("stop")
      expect(cut.choices[0].finish_reason).toBe("length")
      expect(cut.usage.completion_tokens).toBe(4)
      expect(full.choices[0].message.content.startsWith(cut.choices[0].message.content)).toBe(true)
      expect(cut.choices[0].message.content.trim().split(/\s+/)).toHaveLength(4)
    })))

  it.effect("stop cuts before the earliest stop sequence, which is not included", () =>
    inService(Effect.gen(function*() {
      const full = yield* chat({ messages: ask("Tell me about rivers"), temperature: 0 })
      const text: string = full.choices[0].message.content
      const cut = yield* chat({ messages: ask("Tell me about rivers"), temperature: 0, stop: ["reference", "asked"] })
      expect(cut.choices[0].message.content).toBe(text.slice(0, text.indexOf("asked")))
      expect(cut.choices[0].finish_reason).toBe("stop")
      const newline = yield* chat({ messages: ask("a"), temperature: 0, stop: "\n" })
      expect(newline.choices[0].message.content).not.toContain("\n")
    })))

  it.effect("n gives n distinct choices, indexed from 0", () =>
    inService(Effect.gen(function*() {
      const reply = yield* chat({ messages: ask("Name a colour"), n: 16, temperature: 1.5 })
      expect(reply.choices.map((c: any) => c.index)).toEqual([...Array(16).keys()])
      expect(new Set(reply.choices.map((c: any) => c.message.content)).size).toBe(16)
      const short = yield* chat({ messages: ask("Name a colour"), n: 16, temperature: 1.5, max_tokens: 1 })
      expect(new Set(short.choices.map((c: any) => c.message.content)).size).toBe(16)
    })))

  it.effect("temperature 0 is fully deterministic, whatever the seed", () =>
    Effect.gen(function*() {
      const request = { messages: ask("Explain tides"), temperature: 0 }
      const answers = yield* Effect.forEach([0, 1, 2, 99], (seed) => inService(chat(request), { seed }))
      expect(new Set(answers.map((a) => a.choices[0].message.content)).size).toBe(1)
    }))

  it.effect("the same request and seed give the same answer; seeds vary answers at a positive temperature", () =>
    Effect.gen(function*() {
      const request = { messages: ask("Explain tides"), temperature: 1 }
      const first = yield* inService(chat(request), { seed: 7 })
      const again = yield* inService(chat(request), { seed: 7 })
      expect(again.choices).toEqual(first.choices)
      expect(again.id).toBe(first.id)
      const others = yield* Effect.forEach([1, 2, 3, 4, 5, 6], (seed) => inService(chat(request), { seed }))
      expect(new Set(others.map((a) => a.choices[0].message.content)).size).toBeGreaterThan(1)
    }))

  it.effect("JSON mode returns valid JSON", () =>
    inService(Effect.gen(function*() {
      const reply = yield* chat({ messages: ask("List three fruits"), response_format: { type: "json_object" }, n: 3 })
      for (const choice of reply.choices) expect(() => JSON.parse(choice.message.content)).not.toThrow()
    })))

  it.effect("tool calls name a given function and carry arguments that fit its parameter schema", () =>
    inService(Effect.gen(function*() {
      const parameters = {
        type: "object",
        properties: {
          city: { type: "string", description: "the city", maxLength: 20 },
          days: { type: "integer", description: "days ahead", minimum: 1, maximum: 10 },
          unit: { type: "string", enum: ["celsius", "fahrenheit"], description: "unit" },
          detail: { type: "boolean", description: "more detail" },
          hours: { type: "array", items: { type: "number", minimum: 0 }, minItems: 2, description: "hours" },
          where: {
            type: "object",
            properties: { lat: { type: "number" }, lon: { type: "number" } },
            required: ["lat", "lon"],
            description: "coordinates"
          }
        },
        required: ["city", "days", "unit"]
      }
      const tools = [
        { type: "function", function: { name: "send_email", description: "Sends an email to a person" } },
        { type: "function", function: { name: "get_weather", description: "Weather forecast for a city", parameters } }
      ]
      const reply = yield* chat({ messages: ask("What will the weather be in Lyon in 3 days, in fahrenheit?"), tools })
      const choice = reply.choices[0]
      expect(choice.finish_reason).toBe("tool_calls")
      const toolCall = choice.message.tool_calls[0]
      expect(toolCall).toMatchObject({ type: "function", function: { name: "get_weather" } })
      expect(toolCall.id).toMatch(/^call_/)
      const args = JSON.parse(toolCall.function.arguments)
      expect(ajv.validate(parameters, args), JSON.stringify(ajv.errors)).toBe(true)
      expect(args).toMatchObject({ city: "Lyon", days: 3, unit: "fahrenheit" })
    })))

  it.effect("a tool message is answered with its content", () =>
    inService(Effect.gen(function*() {
      const reply = yield* chat({
        messages: [
          { role: "user", content: "What is the weather in Lyon?" },
          {
            role: "assistant",
            content: "",
            tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: "{}" } }]
          },
          { role: "tool", tool_call_id: "c1", content: "{\"temperature\": 21, \"sky\": \"clear\"}" }
        ]
      })
      const content: string = reply.choices[0].message.content
      expect(content).toContain("get_weather")
      expect(content).toContain("\"temperature\": 21")
    })))

  it.effect("documents are drawn on: the closest sentence is quoted with its source", () =>
    inService(Effect.gen(function*() {
      const reply = yield* chat({
        messages: ask("When does the museum open?"),
        documents: [
          {
            content: "The cafe serves lunch. The museum opens at nine on weekdays.",
            metadata: [{ key: "url", value: "https://museum.test" }]
          },
          { content: "Parking is free." }
        ]
      })
      const content: string = reply.choices[0].message.content
      expect(content).toContain("The museum opens at nine on weekdays.")
      expect(content).toContain("https://museum.test")
    })))

  it.effect("it never pretends to know facts: it restates the request and says what it is", () =>
    inService(Effect.gen(function*() {
      const reply = yield* chat({ messages: ask("Who won the 1998 World Cup?"), temperature: 0 })
      const content: string = reply.choices[0].message.content
      expect(content).toContain("Who won the 1998 World Cup?")
      expect(content).toContain("does not know facts beyond it")
    })))

  it.effect("usage is consistent: totals add up, and a stream counts what the whole answer counts", () =>
    inService(Effect.gen(function*() {
      const request = { messages: ask("Describe a forest"), temperature: 0, max_tokens: 12 }
      const whole = yield* chat(request)
      expect(whole.usage.total_tokens).toBe(whole.usage.prompt_tokens + whole.usage.completion_tokens)
      const streamed = yield* call("POST", "/studio/v1/chat/completions", {
        body: { model: "fpmodel-mini", ...request, stream: true }
      })
      const chunks = events(streamed.text).slice(0, -1).map((data) => JSON.parse(data))
      const contentChunks = chunks.filter((c) =>
        typeof c.choices[0].delta.content === "string" && c.choices[0].delta.content !== ""
      )
      expect(contentChunks.length).toBe(whole.usage.completion_tokens)
      expect(chunks.at(-1).usage).toEqual(whole.usage)
      const several = yield* chat({ ...request, n: 3, temperature: 1 })
      expect(several.usage.prompt_tokens).toBe(whole.usage.prompt_tokens)
      expect(several.usage.completion_tokens).toBe(36)
    })))
})

describe("the stream has the service's exact shape", () => {
  it.effect("role first, then content deltas, then an empty delta with finish_reason and the only usage, then [DONE]", () =>
    inService(Effect.gen(function*() {
      const answer = yield* call("POST", "/studio/v1/chat/completions", {
        body: { model: "fpmodel-mini", messages: ask("Hello"), stream: true, temperature: 0 }
      })
      expect(answer.headers["content-type"]).toMatch(/^text\/event-stream/)
      expect(answer.text.endsWith("data: [DONE]\n\n")).toBe(true)
      const data = events(answer.text)
      expect(data.at(-1)).toBe("[DONE]")
      const chunks = data.slice(0, -1).map((d) => JSON.parse(d))
      const ids = new Set(chunks.map((c) => c.id))
      expect(ids.size).toBe(1)
      expect([...ids][0]).toMatch(/^chat-[0-9a-f]{32}$/)
      expect(chunks[0].choices[0]).toEqual({
        index: 0,
        delta: { role: "assistant" },
        logprobs: null,
        finish_reason: null
      })
      const middle = chunks.slice(1, -1)
      expect(middle.length).toBeGreaterThan(0)
      for (const chunk of middle) {
        expect(Object.keys(chunk.choices[0].delta)).toEqual(["content"])
        expect(chunk.choices[0].finish_reason).toBeNull()
        expect(chunk.usage).toBeUndefined()
      }
      const last = chunks.at(-1)
      expect(last.choices[0]).toMatchObject({ delta: { content: "" }, finish_reason: "stop" })
      expect(last.usage.total_tokens).toBe(last.usage.prompt_tokens + last.usage.completion_tokens)
      const whole = yield* chat({ messages: ask("Hello"), temperature: 0 })
      expect(middle.map((c) => c.choices[0].delta.content).join("")).toBe(whole.choices[0].message.content)
    })))
})

describe("a pluggable model", () => {
  it.effect("a script of replies is given in order, then the built-in model answers", () =>
    inService(
      Effect.gen(function*() {
        const a = yield* chat({ messages: ask("x") })
        const b = yield* chat({ messages: ask("x"), stop: "STOP" })
        const c = yield* chat({ messages: ask("x"), max_tokens: 2 })
        const d = yield* chat({ messages: ask("x") })
        expect(a.choices[0].message).toEqual({
          role: "assistant",
          content: null,
          tool_calls: [{
            id: expect.stringMatching(/^call_/),
            type: "function",
            function: { name: "lookup", arguments: "{\"q\":1}" }
          }]
        })
        expect(b.choices[0].message.content).toBe("first part ")
        expect(c.choices[0]).toMatchObject({ message: { content: "one two" }, finish_reason: "length" })
        expect(d.choices[0].message.content).toContain("reference service")
      }),
      { model: [{ toolCalls: [{ name: "lookup", arguments: { q: 1 } }] }, "first part STOP second", "one two three"] }
    ))

  it.effect("a function of the request answers, directly or with an effect", () =>
    inService(
      Effect.gen(function*() {
        const reply = yield* chat({ messages: ask("ping"), n: 2, temperature: 1 })
        expect(reply.choices.map((c: any) => c.message.content)).toEqual([
          "pong 0 from fpmodel-mini",
          "pong 1 from fpmodel-mini"
        ])
      }),
      {
        model: (request, context) =>
          Effect.succeed(
            `${request.messages.at(-1)?.content === "ping" ? "pong" : "?"} ${context.index} from ${request.model}`
          )
      }
    ))

  it.effect("the model identifier must be one the service offers, or one its options add", () =>
    Effect.gen(function*() {
      const unknown = yield* inService(
        call("POST", "/studio/v1/chat/completions", { body: { model: "gpt-x", messages: ask("x") } })
      )
      expect(unknown.status).toBe(422)
      expect(unknown.json.detail[0].loc).toEqual(["body", "model"])
      const added = yield* inService(
        call("POST", "/studio/v1/chat/completions", { body: { model: "gpt-x", messages: ask("x") } }),
        {
          extraModels: ["gpt-x"]
        }
      )
      expect(added.status).toBe(200)
    }))
})
