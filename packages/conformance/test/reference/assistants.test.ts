import { describe, Effect, expect, it, TestClock } from "@studio-effect/line"
import { detect } from "studio-effect-core/reference/language"
import * as Reference from "studio-effect/reference"
import { call } from "./support.js"

const inService = <A, E>(effect: Effect.Effect<A, E, any>, options: Reference.ReferenceOptions = {}) =>
  Effect.provide(effect, Reference.layer(options)) as Effect.Effect<A, E>

const ok = (answer: { readonly status: number; readonly text: string; readonly json: any }) => {
  expect(answer.status, answer.text).toBe(200)
  return answer.json
}

describe("the assistant store", () => {
  it.effect("create, retrieve, list, update and delete", () =>
    inService(Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2025-01-02T03:04:05.000Z"))
      const created = ok(yield* call("POST", "/studio/v1/assistants", { body: { name: "Helper", budget: "low" } }))
      expect(created).toMatchObject({
        object: "assistant",
        name: "Helper",
        budget: "low",
        created_at: "2025-01-02T03:04:05.000Z",
        updated_at: "2025-01-02T03:04:05.000Z",
        response_language: "unset"
      })
      expect(ok(yield* call("GET", `/studio/v1/assistants/${created.id}`))).toEqual(created)
      const second = ok(yield* call("POST", "/studio/v1/assistants", { body: { name: "Second" } }))
      expect(second.id).not.toBe(created.id)
      expect(second.budget).toBe("medium")
      expect(ok(yield* call("GET", "/studio/v1/assistants")).results.map((a: any) => a.name)).toEqual([
        "Helper",
        "Second"
      ])
      yield* TestClock.adjust("1 hour")
      const updated = ok(
        yield* call("PATCH", `/studio/v1/assistants/${created.id}`, { body: { description: "Helps", budget: "high" } })
      )
      expect(updated).toMatchObject({
        name: "Helper",
        description: "Helps",
        budget: "high",
        updated_at: "2025-01-02T04:04:05.000Z"
      })
      expect(updated.created_at).toBe(created.created_at)
      expect(ok(yield* call("DELETE", `/studio/v1/assistants/${created.id}`))).toEqual({
        object: "assistant",
        deleted: true,
        id: created.id
      })
      expect((yield* call("GET", `/studio/v1/assistants/${created.id}`)).status).toBe(404)
      expect((yield* call("DELETE", `/studio/v1/assistants/${created.id}`)).status).toBe(404)
      expect(ok(yield* call("GET", "/studio/v1/assistants")).results.map((a: any) => a.name)).toEqual(["Second"])
    })))

  it.effect("validation names the path", () =>
    inService(Effect.gen(function*() {
      const answer = yield* call("POST", "/studio/v1/assistants", {
        body: { name: "", requirements: Array.from({ length: 11 }, (_, i) => ({ name: `r${i}`, description: "x" })) }
      })
      expect(answer.status).toBe(422)
      const locs = answer.json.detail.map((d: any) => d.loc.join("."))
      expect(locs).toContain("body.name")
      expect(locs).toContain("body.requirements")
    })))
})

describe("running an assistant merges its configuration with the call's, field by field", () => {
  it.effect("stored fields apply unless the call sends them", () =>
    inService(Effect.gen(function*() {
      const assistant = ok(
        yield* call("POST", "/studio/v1/assistants", {
          body: {
            name: "Brief",
            budget: "medium",
            response_language: "french",
            requirements: [{ name: "short", description: "at most 6 words" }],
            tools: [{ type: "web_search", urls: ["example.com"] }]
          }
        })
      )
      const input = [{ role: "user", content: "Describe the sea" }]
      const include = ["requirements_result", "data_sources", "requirements_result.metadata"]
      const stored = ok(yield* call("POST", `/studio/v1/assistants/${assistant.id}/run`, { body: { input, include } }))
      expect(stored.status).toBe("in_progress")
      yield* TestClock.adjust(599)
      expect(ok(yield* call("GET", `/studio/v1/maestro/runs/${stored.id}`)).status).toBe("in_progress")
      yield* TestClock.adjust(1)
      const storedDone = ok(yield* call("GET", `/studio/v1/maestro/runs/${stored.id}`))
      expect(storedDone.status).toBe("completed")
      expect(storedDone.requirements_result.requirements.map((r: any) => r.name)).toEqual(["short"])
      expect(storedDone.requirements_result.metadata).toMatchObject({ budget: "medium", language: "french" })
      expect(storedDone.data_sources.web_search.map((source: { url: string }) => source.url)).toEqual([
        "https://www.example.com/"
      ])
      expect(detect(storedDone.result)).toBe("french")

      const overridden = ok(
        yield* call("POST", `/studio/v1/assistants/${assistant.id}`, {
          body: {
            input,
            include: ["requirements_result"],
            requirements: [{ name: "list", description: "a numbered list" }],
            budget: "low"
          }
        })
      )
      yield* TestClock.adjust(200)
      const done = ok(yield* call("GET", `/studio/v1/maestro/runs/${overridden.id}`))
      expect(done.status).toBe("completed")
      expect(done.requirements_result.requirements.map((r: any) => r.name)).toEqual(["list"])
      expect(done.requirements_result).not.toHaveProperty("metadata")
      expect(done).not.toHaveProperty("data_sources")
      expect(detect(done.result)).toBe("french")
    })))

  it.effect("without include, every extra field is returned, as the service's include defaults to all; an empty include returns none; an unknown assistant is a 404", () =>
    inService(Effect.gen(function*() {
      const assistant = ok(yield* call("POST", "/studio/v1/assistants", { body: { name: "A", budget: "low" } }))
      const runOf = (body: Record<string, unknown>) =>
        Effect.gen(function*() {
          const run = ok(yield* call("POST", `/studio/v1/assistants/${assistant.id}/run`, { body }))
          yield* TestClock.adjust("1 second")
          return ok(yield* call("GET", `/studio/v1/maestro/runs/${run.id}`))
        })
      const all = yield* runOf({ input: [{ role: "user", content: "x" }] })
      expect(Object.keys(all).sort()).toEqual([
        "created_at",
        "data_sources",
        "id",
        "requirements_result",
        "result",
        "status"
      ])
      expect(Object.keys(all.requirements_result)).toContain("metadata")
      const none = yield* runOf({ input: [{ role: "user", content: "x" }], include: [] })
      expect(Object.keys(none).sort()).toEqual(["created_at", "id", "result", "status"])
      const missing = yield* call("POST", "/studio/v1/assistants/nope/run", {
        body: { input: [{ role: "user", content: "x" }] }
      })
      expect(missing.status).toBe(404)
    })))
})
