/**
 * The rules `StudioLanguageModel` applies, as properties: the chat parameters are checked exactly as
 * `Chat.create` checks them, a tool choice the service cannot keep is refused (and nothing is sent), a
 * request the service cannot stream is made once unstreamed, and text prompts become the same chat messages.
 */
import {
  collect,
  describe,
  Effect,
  expect,
  isFailure,
  isSuccess,
  it,
  LanguageModel,
  Layer,
  Option,
  outcome,
  Prompt,
  Schema,
  Tool,
  Toolkit,
  toolParameters
} from "@studio-effect/line"
import * as fc from "fast-check"
import { Chat } from "studio-effect"
import { StudioLanguageModel } from "studio-effect/ai"
import * as Reference from "studio-effect/reference"

const runs = { numRuns: 60 }

/** A fresh in-memory service whose model records the requests it gets. */
const service = (config?: Omit<StudioLanguageModel.Config.Service, "model">) => {
  const requests: Array<Reference.Model.ModelRequest> = []
  const model: Reference.Model.Model = (request, context) => {
    requests.push(request)
    return Reference.Model.builtIn(request, context)
  }
  const client = Reference.layerClient({ model, client: { maxRetries: 0 } })
  return {
    requests,
    client,
    studio: Layer.provide(StudioLanguageModel.model("fpmodel-mini", config), client)
  }
}

const Search = Tool.make("search_notes", {
  description: "Searches the notes for a phrase",
  parameters: toolParameters({ phrase: Schema.String })
})
const Notes = Toolkit.make(Search)
const NotesLive = Notes.toLayer({ search_notes: () => Effect.void })

const parameters = fc.record({
  temperature: fc.option(fc.double({ min: -1, max: 3, noNaN: true }), { nil: undefined }),
  top_p: fc.option(fc.double({ min: -0.5, max: 1.5, noNaN: true }), { nil: undefined }),
  max_tokens: fc.option(fc.integer({ min: -10, max: 5000 }), { nil: undefined }),
  n: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined })
}, { requiredKeys: [] }).map((record) =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as {
    readonly temperature?: number
    readonly top_p?: number
    readonly max_tokens?: number
    readonly n?: number
  }
)

const toolChoices = fc.constantFrom<LanguageModel.ToolChoice<"search_notes">>(
  "auto",
  "none",
  "required",
  { tool: "search_notes" },
  { oneOf: ["search_notes"] },
  { mode: "auto", oneOf: ["search_notes"] },
  { mode: "required", oneOf: ["search_notes"] }
)

const forces = (choice: LanguageModel.ToolChoice<string>): boolean =>
  choice === "required" || (typeof choice === "object" && ("tool" in choice || choice.mode === "required"))

describe("StudioLanguageModel rules", () => {
  it("chat parameters are refused exactly when Chat.create refuses them, with the same issues", async () => {
    await fc.assert(
      fc.asyncProperty(parameters, async (config) => {
        const { client, studio } = service(config)
        const messages = [{ role: "user" as const, content: "Tell me about the tides" }]
        const direct = await Effect.runPromise(
          outcome(Chat.create({ model: "fpmodel-mini", messages, ...config })).pipe(Effect.provide(client))
        )
        const viaModel = await Effect.runPromise(
          outcome(LanguageModel.generateText({ prompt: "Tell me about the tides" })).pipe(Effect.provide(studio))
        )
        expect(isFailure(viaModel)).toBe(isFailure(direct))
        if (isFailure(direct) && isFailure(viaModel)) {
          expect(direct.failure._tag).toBe("ValidationError")
          const original = Option.getOrThrow(StudioLanguageModel.studioError(viaModel.failure))
          expect(original._tag === "ValidationError" && original.issues).toEqual(
            direct.failure._tag === "ValidationError" && direct.failure.issues
          )
        }
      }),
      runs
    )
  })

  it("a tool choice that forces a call is refused before sending; the others are sent as asked", async () => {
    await fc.assert(
      fc.asyncProperty(toolChoices, async (toolChoice) => {
        const { requests, studio } = service()
        const result = await Effect.runPromise(
          outcome(
            LanguageModel.generateText({ prompt: "Search my notes for \"tides\"", toolkit: Notes, toolChoice })
          )
            .pipe(Effect.provide(NotesLive), Effect.provide(studio))
        )
        if (forces(toolChoice)) {
          expect(isFailure(result)).toBe(true)
          expect(requests).toHaveLength(0)
        } else {
          expect(isSuccess(result)).toBe(true)
          expect(requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(
            toolChoice === "none" ? undefined : ["search_notes"]
          )
        }
      }),
      runs
    )
  })

  it("streamText streams exactly the requests the service can stream, and makes the others once unstreamed", async () => {
    const choices = fc.integer({ min: 1, max: 3 })
    await fc.assert(
      fc.asyncProperty(toolChoices.filter((choice) => !forces(choice)), choices, async (toolChoice, n) => {
        const { requests, studio } = service({ n, temperature: 0.5 })
        const result = await Effect.runPromise(
          outcome(
            collect(LanguageModel.streamText({ prompt: "Search my notes", toolkit: Notes, toolChoice }))
          ).pipe(Effect.provide(NotesLive), Effect.provide(studio))
        )
        expect(isSuccess(result)).toBe(true)
        if (!isSuccess(result)) return
        const streamed = toolChoice === "none" && n === 1
        // the reference model is asked once per choice
        expect(requests).toHaveLength(n)
        for (const request of requests) {
          expect(request.stream).toBe(streamed ? true : undefined)
          expect(request.tools?.map((tool) => tool.function.name)).toEqual(
            toolChoice === "none" ? undefined : ["search_notes"]
          )
        }
        const parts = Array.from(result.success)
        expect(parts[0]?.type).toBe("response-metadata")
        expect(parts[parts.length - 1]?.type).toBe("finish")
      }),
      runs
    )
  })

  it("a prompt of text messages becomes the same chat messages, in order", async () => {
    const message = fc.record({
      role: fc.constantFrom("system" as const, "user" as const, "assistant" as const),
      content: fc.string({ maxLength: 40 })
    })
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 6 }), async (messages) => {
        const { requests, studio } = service()
        await Effect.runPromise(
          LanguageModel.generateText({ prompt: Prompt.make(messages) }).pipe(Effect.provide(studio))
        )
        expect(requests[0]?.messages).toEqual(messages)
      }),
      runs
    )
  })
})
