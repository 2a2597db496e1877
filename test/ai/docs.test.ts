/**
 * The test example of docs/effect-ai.md, as written there.
 */
import { LanguageModel, Prompt, Tool, Toolkit } from "@effect/ai"
import { expect, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { StudioLanguageModel } from "../../src/ai/index.js"
import * as Reference from "../../src/reference/index.js"

const Lookup = Tool.make("lookup_order", {
  description: "The status of an order by its number",
  parameters: { order: Schema.String },
  success: Schema.String
})
const Orders = Toolkit.make(Lookup)
const OrdersTest = Orders.toLayer({ lookup_order: ({ order }) => Effect.succeed(`${order} shipped`) })

// The service calls the tool first, then answers; the reference service checks every request on the way.
const Studio = Layer.provide(
  StudioLanguageModel.model("fpmodel-mini"),
  Reference.layerClient({
    model: [{ toolCalls: [{ name: "lookup_order", arguments: { order: "A-17" } }] }, "Your order A-17 has shipped."]
  })
)

it.effect("my support bot looks the order up before answering", () =>
  Effect.gen(function*() {
    const question = "Where is my order A-17?"
    const first = yield* LanguageModel.generateText({ prompt: question, toolkit: Orders })
    expect(first.toolResults.map((result) => result.result)).toEqual(["A-17 shipped"])
    const final = yield* LanguageModel.generateText({
      prompt: Prompt.merge(Prompt.make(question), Prompt.fromResponseParts(first.content)),
      toolkit: Orders
    })
    expect(final.text).toBe("Your order A-17 has shipped.")
  }).pipe(Effect.provide(OrdersTest), Effect.provide(Studio)))
