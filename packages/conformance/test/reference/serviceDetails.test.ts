/**
 * Details of the reference service that the real service has, through the public surface, in memory and
 * over a socket on each transport: the real service's model ids answer as the models they stand for,
 * `Assistants.list`'s `workspace_ids` lists only those workspaces' assistants, and a run carries its
 * `created_at` and web sources with their `text` and `score`.
 */
import { describe, Effect, expect, it, Schedule } from "@studio-effect/line"
import { Assistants, Chat, Maestro, Models } from "studio-effect"
import { referenceClients } from "../support/referenceClients.js"

const details = Effect.gen(function*() {
  const question = [{ role: "user" as const, content: "Is it raining in Lisbon?" }]
  for (const [id, name] of Object.entries(Models.serviceModelIds)) {
    const real = yield* Chat.create({ model: id, messages: question, temperature: 0 })
    const ours = yield* Chat.create({ model: name, messages: question, temperature: 0 })
    expect(real.choices[0]!.message.content).toBe(ours.choices[0]!.message.content)
    expect(real.choices[0]!.message.reasoning_content ?? undefined).toBe(
      ours.choices[0]!.message.reasoning_content ?? undefined
    )
    expect(Models.hostedModelOf(id)).toBe(name)
  }
  expect((yield* Chat.create({ model: "jamba-large", messages: question })).choices[0]!.message.reasoning_content)
    .toMatch(/^The request is "Is it raining in Lisbon\?"/)

  const created = yield* Assistants.create({ name: "Helper" })
  expect(created.workspace_id).toBe("reference-workspace")
  expect((yield* Assistants.list()).results.map((a) => a.id)).toEqual([created.id])
  expect((yield* Assistants.list({ workspaceIds: ["reference-workspace", "w2"] })).results.map((a) => a.id))
    .toEqual([created.id])
  expect((yield* Assistants.list({ workspaceIds: ["another-workspace"] })).results).toEqual([])

  const run = yield* Maestro.createAndPoll(
    {
      input: "Which tea is green?",
      tools: [{ type: "web_search", urls: ["example.com", "docs.example.org"] }],
      include: ["data_sources"],
      models: ["jamba-mini"]
    },
    { schedule: Schedule.spaced("10 millis") }
  )
  expect(Number.isNaN(Date.parse(run.created_at ?? ""))).toBe(false)
  const sources = run.data_sources?.web_search ?? []
  expect(sources.map((source) => source.url)).toEqual(["https://www.example.com/", "https://docs.example.org/"])
  expect(sources.map((source) => source.score)).toEqual([1, 0.5])
  for (const source of sources) expect(source.text).toBe(`Pages under ${source.url} about "Which tea is green?"`)
})

describe("the reference service's details of the real service", () => {
  for (const [where, client] of referenceClients({ runStepDuration: 0 })) {
    it.live(`${where}: model ids, workspace_ids, created_at and web sources`, () =>
      Effect.flatMap(client, (layer) => Effect.provide(details, layer)))
  }
})
