/**
 * Models and the scoping of a run's sources, end to end against the reference service, in memory and over a
 * socket: `Models.list`, a caller's own third-party model in a run, `web_search` scopes for multi-part
 * suffixes and subdomains, and an assistant's `tool_resources` stored and used by its runs.
 */
import { describe, Effect, expect, FetchHttpClient, it, Layer, Redacted, type Scope } from "@studio-effect/line"
import { Assistants, Maestro, Models, StudioClient } from "studio-effect"
import * as Reference from "studio-effect/reference"

/** Runs complete as they are created, so no clock is needed. */
const service: Reference.ReferenceOptions = { runStepDuration: 0, extraModels: ["fpmodel-experimental"] }

const transports: ReadonlyArray<
  readonly [string, Effect.Effect<Layer.Layer<StudioClient.StudioClient>, unknown, Scope.Scope>]
> = [
  ["in memory", Effect.succeed(Reference.layerClient({ ...service, client: { apiKey: Redacted.make("k") } }))],
  [
    "over a socket",
    Effect.map(
      Reference.listen(service),
      (server) =>
        StudioClient.layer({ apiKey: Redacted.make("k"), baseUrl: server.url }).pipe(
          Layer.orDie,
          Layer.provide(FetchHttpClient.layer)
        )
    )
  ]
]

describe.each(transports)("against the reference service %s", (_, transport) => {
  const withClient = <A, E>(effect: Effect.Effect<A, E, StudioClient.StudioClient>) =>
    Effect.scoped(Effect.flatMap(transport, (layer) => Effect.provide(effect, layer)))

  it.live("Models.list gives the hosted models and the ones the service's options add", () =>
    withClient(Effect.gen(function*() {
      const models = yield* Models.list()
      expect(models.data.map((model) => model.id)).toEqual(["fpmodel-large", "fpmodel-mini", "fpmodel-experimental"])
      for (const model of models.data) {
        expect(model.context_length).toBeGreaterThan(0)
        expect(model.pricing.prompt).toMatch(/^\d+(\.\d+)?$/)
      }
    })))

  it.live("a run may name a caller's own third-party model; an unknown fpmodel- name is refused", () =>
    withClient(Effect.gen(function*() {
      const run = yield* Maestro.create({ input: "Hi", models: ["my-provider/custom-model-2"] })
      expect(run.status).toBe("completed")
      const refused = yield* Effect.flip(Maestro.create({ input: "Hi", models: ["fpmodel-larg"] }))
      expect(refused._tag).toBe("ValidationError")
    })))

  it.live("web_search scopes: a multi-part suffix gets www., a subdomain stays itself", () =>
    withClient(Effect.gen(function*() {
      const run = yield* Maestro.create({
        input: "News",
        include: ["data_sources"],
        tools: [{
          type: "web_search",
          urls: ["example.co.uk", "https://docs.example.com", "shop.example.co.uk/deals", "example.com"]
        }]
      })
      expect(run.data_sources?.web_search?.map((source) => source.url)).toEqual([
        "https://www.example.co.uk/",
        "https://docs.example.com/",
        "https://shop.example.co.uk/deals",
        "https://www.example.com/"
      ])
    })))

  it.live("an assistant's tool_resources are stored, and its runs search what they allow", () =>
    withClient(Effect.gen(function*() {
      const toolResources = { web_search: { urls: ["example.org"] }, file_search: { labels: ["hr"] } }
      const created = yield* Assistants.create({ name: "Researcher", tool_resources: toolResources })
      expect(created.tool_resources).toEqual(toolResources)
      expect((yield* Assistants.retrieve(created.id)).tool_resources).toEqual(toolResources)
      const run = yield* Assistants.run(created.id, {
        input: [{ role: "user", content: "What changed?" }],
        include: ["data_sources"]
      })
      expect(run.data_sources?.web_search?.map((source) => source.url)).toEqual(["https://www.example.org/"])
      // a call's own tool_resources replace the stored ones for that call
      const overridden = yield* Assistants.run(created.id, {
        input: [{ role: "user", content: "What changed?" }],
        include: ["data_sources"],
        tool_resources: { web_search: { urls: ["docs.example.net"] } }
      })
      expect(overridden.data_sources?.web_search?.map((source) => source.url)).toEqual(["https://docs.example.net/"])
    })))
})
