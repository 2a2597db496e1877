/**
 * The fields of a run request the real service takes beyond the interface's table: `output_type` (a JSON
 * Schema of the result, or `"json"`), `verbose`, `structured_rag_enabled` and `dynamic_planning_enabled`, on
 * a run and on an assistant run. Typed and checked by the SDK, sent as given, and honoured by the reference
 * service where it can: a run whose `output_type` is a JSON Schema completes with a value of it. Against
 * the reference service in memory and over a socket on each transport, and against a recording server.
 */
import { describe, Effect, expect, FetchHttpClient, it, Layer, outcome, Redacted } from "@studio-effect/line"
import { Assistants, Maestro, StudioClient } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { referenceClients } from "./support/referenceClients.js"
import { testServer } from "./support/testServer.js"

const trip = {
  type: "object",
  properties: {
    city: { type: "string" },
    days: { type: "integer", minimum: 1, maximum: 5 },
    pace: { type: "string", enum: ["slow", "fast"] }
  },
  required: ["city", "days", "pace"]
}
const switches = { verbose: true, structured_rag_enabled: true, dynamic_planning_enabled: false }

const expectTrip = (result: unknown) => {
  expect(result).toEqual({ city: expect.any(String), days: expect.any(Number), pace: expect.any(String) })
  const { days, pace } = result as { days: number; pace: string }
  expect(Number.isInteger(days) && days >= 1 && days <= 5).toBe(true)
  expect(["slow", "fast"]).toContain(pace)
}

const service: Reference.ReferenceOptions = { runStepDuration: 0 }
const clients = referenceClients(service)

describe.each(clients)("a run's output type and switches, against the reference service %s", (_, client) => {
  const withClient = <A, E>(effect: Effect.Effect<A, E, StudioClient.StudioClient>) =>
    Effect.scoped(Effect.flatMap(client, (layer) => Effect.provide(effect, layer)))

  it.live("a run with a JSON Schema output type completes with a value of it; without one, with text", () =>
    withClient(Effect.gen(function*() {
      const run = yield* Maestro.createAndPoll({
        input: "Plan a slow trip to \"Lisbon\"",
        output_type: trip,
        ...switches
      })
      expect(run.status).toBe("completed")
      expectTrip(run.result)
      const text = yield* Maestro.createAndPoll({ input: "Plan a trip", output_type: "json", verbose: false })
      expect(typeof text.result).toBe("string")
    })))

  it.live("an assistant run takes the same fields", () =>
    withClient(Effect.gen(function*() {
      const assistant = yield* Assistants.create({ name: "Planner" })
      const run = yield* Assistants.runAndPoll(assistant.id, {
        input: [{ role: "user", content: "Plan a trip to Oslo" }],
        output_type: trip,
        ...switches
      })
      expectTrip(run.result)
    })))

  it.live("a switch that is not a boolean is a ValidationError at its path, and nothing is sent", () =>
    withClient(Effect.gen(function*() {
      const refused = yield* outcome(Maestro.create({ input: "x", verbose: "yes" as unknown as boolean }))
      expect(refused._tag === "Failure" && refused.failure._tag).toBe("ValidationError")
      expect(refused._tag === "Failure" && refused.failure.message).toContain("verbose")
    })))
})

describe("a run's output type and switches, as sent", () => {
  it.live("the SDK sends them as given, on a run and on an assistant run", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: { id: "r-1", status: "in_progress", result: null } }))
      const layer = StudioClient.layer({ apiKey: Redacted.make("k"), baseUrl: server.url }).pipe(
        Layer.orDie,
        Layer.provide(FetchHttpClient.layer)
      )
      yield* Maestro.create({ input: "x", output_type: trip, ...switches }).pipe(Effect.provide(layer))
      yield* Assistants.run("asst-1", { input: [{ role: "user", content: "x" }], ...switches }).pipe(
        Effect.provide(layer)
      )
      const [run, assistantRun] = server.requests.map((request) => JSON.parse(request.body))
      expect(run).toMatchObject({ output_type: trip, ...switches })
      expect(assistantRun).toMatchObject(switches)
    }).pipe(Effect.scoped))
})
