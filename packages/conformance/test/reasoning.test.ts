/**
 * The model's reasoning end to end, against the reference service in memory and over a socket on each
 * transport: `fpmodel-large` shows its reasoning (`reasoning_content`), whole and streamed;
 * `Chat.reasoningDeltas` gives it alone and `Chat.accumulate` keeps it, so a stream adds up to the same
 * completion as `Chat.create`; a scripted reply's reasoning is sent as it is; the `effect/ai` provider
 * gives it as reasoning parts, generated and streamed.
 */
import { collect, describe, Effect, expect, fold, it, LanguageModel, Stream } from "@studio-effect/line"
import { Chat, type ChatSchema, StudioClient } from "studio-effect"
import { StudioLanguageModel } from "studio-effect/ai"
import * as Reference from "studio-effect/reference"
import { referenceClients } from "./support/referenceClients.js"

const question = (model: string): ChatSchema.ChatRequest => ({
  model,
  messages: [{ role: "user", content: "Is it raining in Lisbon?" }],
  temperature: 0
})
const scripted = { content: "It is sunny.", reasoning: "The sky is clear, so: sunny." }
const service: Reference.ReferenceOptions = {
  model: [scripted, scripted]
}

const clients = referenceClients(service)

describe.each(clients)("reasoning, against the reference service %s", (_, client) => {
  const withClient = <A, E>(effect: Effect.Effect<A, E, StudioClient.StudioClient>) =>
    Effect.scoped(Effect.flatMap(client, (layer) => Effect.provide(effect, layer)))

  it.live("a scripted reply's reasoning is sent whole and streamed, before the content", () =>
    withClient(Effect.gen(function*() {
      const whole = yield* Chat.create(question("fpmodel-mini"))
      expect(whole.choices[0]!.message.reasoning_content).toBe(scripted.reasoning)
      expect(whole.choices[0]!.message.content).toBe(scripted.content)
      const chunks = yield* collect(Chat.stream(question("fpmodel-mini")))
      const thoughts = yield* collect(Chat.reasoningDeltas(Stream.fromIterable(chunks)))
      const texts = yield* collect(Chat.textDeltas(Stream.fromIterable(chunks)))
      expect(thoughts.join("")).toBe(scripted.reasoning)
      expect(texts.join("")).toBe(scripted.content)
      const firstText = chunks.findIndex((chunk) => typeof chunk.choices[0]?.delta.content === "string")
      const thoughtsAt = chunks.flatMap((chunk, i) => chunk.choices[0]?.delta.reasoning_content ? [i] : [])
      expect(Math.max(...thoughtsAt)).toBeLessThan(firstText)
    })))

  it.live("fpmodel-large reasons and fpmodel-mini does not; a stream accumulates to what create answers", () =>
    withClient(Effect.gen(function*() {
      // the script's two replies go first
      yield* Chat.create(question("fpmodel-mini"))
      yield* Chat.create(question("fpmodel-mini"))
      const large = yield* Chat.create(question("fpmodel-large"))
      expect(large.choices[0]!.message.reasoning_content).toMatch(/^The request is "Is it raining in Lisbon\?"/)
      const accumulated = yield* Chat.accumulate(Chat.stream(question("fpmodel-large")))
      const { id: _, ...rest } = accumulated
      const { id: __, ...expected } = large
      expect(rest).toEqual(expected)
      // the message goes back as it came, its reasoning included
      const next = yield* Chat.create({
        model: "fpmodel-large",
        messages: [...question("fpmodel-large").messages, large.choices[0]!.message, { role: "user", content: "And?" }]
      })
      expect(next.choices[0]!.message.reasoning_content).toMatch(/^The request is "And\?"/)
      const mini = yield* Chat.create(question("fpmodel-mini"))
      expect(mini.choices[0]!.message).not.toHaveProperty("reasoning_content")
      expect(yield* collect(Chat.reasoningDeltas(Chat.stream(question("fpmodel-mini"))))).toEqual([])
    })))

  it.live("the effect/ai provider gives the reasoning as reasoning parts, generated and streamed", () =>
    withClient(Effect.gen(function*() {
      yield* Chat.create(question("fpmodel-mini"))
      yield* Chat.create(question("fpmodel-mini"))
      const model = StudioLanguageModel.model("fpmodel-large", { temperature: 0 })
      yield* Effect.gen(function*() {
        const generated = yield* LanguageModel.generateText({ prompt: "Is it raining in Lisbon?" })
        expect(generated.reasoningText).toMatch(/^The request is "Is it raining in Lisbon\?"/)
        const parts = yield* LanguageModel.streamText({ prompt: "Is it raining in Lisbon?" }).pipe(
          fold([] as Array<{ readonly type: string; readonly delta?: string }>, (all, part) => [...all, part])
        )
        const types = parts.map((part) => part.type)
        expect(types.indexOf("reasoning-start")).toBeLessThan(types.indexOf("reasoning-delta"))
        expect(types.indexOf("reasoning-end")).toBeLessThan(types.indexOf("text-start"))
        const reasoning = parts.filter((part) => part.type === "reasoning-delta").map((part) => part.delta).join("")
        expect(reasoning).toBe(generated.reasoningText)
      }).pipe(Effect.provide(model))
    })))
})
