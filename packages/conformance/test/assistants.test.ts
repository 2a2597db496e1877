import { assert, describe, Effect, Fiber, fork, it, Schedule, TestClock } from "@studio-effect/line"
import type { AssistantSchema } from "studio-effect"
import { Assistants } from "studio-effect"
import { clientOf, type RecordedRequest, testKey, testServer, untilRequests } from "./support/testServer.js"

const runJson = (status: string, extra: Record<string, unknown> = {}) => ({
  id: "run-7",
  status,
  result: null,
  ...extra
})

const input = [{ role: "user", content: "Hi" }] as const

// ---------------------------------------------------------------------------------------------------------
// running an assistant
// ---------------------------------------------------------------------------------------------------------

describe("Assistants.run", () => {
  it.effect("posts to /assistants/{id}/run with the request and the overriding fields, byte for byte", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({
        json: runJson("completed", {
          result: "Hello",
          requirements_result: {
            score: 1,
            finish_reason: "fulfilled",
            requirements: [{ name: "short", score: 1, reason: "ok" }],
            metadata: { judge: "x" }
          }
        })
      }))
      const request: AssistantSchema.AssistantRunRequest = {
        input: [{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello" }, {
          role: "user",
          content: "More"
        }],
        output_type: "json",
        include: ["data_sources", "requirements_result", "requirements_result.metadata"],
        requirements: [{ name: "short", description: "One line", is_mandatory: true }],
        budget: "high"
      }
      const run = yield* Assistants.run("asst/1 x", request).pipe(Effect.provide(clientOf(server.url)))
      assert.strictEqual(run.status, "completed")
      assert.strictEqual(run.result, "Hello")
      assert.deepStrictEqual(run.requirements_result?.metadata, { judge: "x" })
      const sent = server.requests[0]!
      assert.strictEqual(sent.method, "POST")
      assert.strictEqual(sent.url, "/studio/v1/assistants/asst%2F1%20x/run")
      assert.strictEqual(sent.headers.authorization, `Bearer ${testKey}`)
      assert.strictEqual(sent.headers["content-type"], "application/json")
      assert.strictEqual(
        sent.body,
        "{\"input\":[{\"role\":\"user\",\"content\":\"Hi\"},{\"role\":\"assistant\",\"content\":\"Hello\"},"
          + "{\"role\":\"user\",\"content\":\"More\"}],\"output_type\":\"json\","
          + "\"include\":[\"data_sources\",\"requirements_result\",\"requirements_result.metadata\"],"
          + "\"requirements\":[{\"name\":\"short\",\"description\":\"One line\",\"is_mandatory\":true}],"
          + "\"budget\":\"high\"}"
      )
    }))

  it.effect("sends only the fields given: the stored assistant keeps the others", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: runJson("in_progress") }))
      yield* Assistants.run("asst_1", { input: [...input] }).pipe(Effect.provide(clientOf(server.url)))
      assert.strictEqual(server.requests[0]!.body, "{\"input\":[{\"role\":\"user\",\"content\":\"Hi\"}]}")
    }))

  it.effect("with path: \"sample\" posts to /assistants/{id}, the interface's sample form", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: runJson("completed") }))
      yield* Assistants.run("asst_1", { input: [...input], output_type: { type: "object" } }, { path: "sample" }).pipe(
        Effect.provide(clientOf(server.url))
      )
      assert.strictEqual(server.requests[0]!.method, "POST")
      assert.strictEqual(server.requests[0]!.url, "/studio/v1/assistants/asst_1")
      assert.strictEqual(
        server.requests[0]!.body,
        "{\"input\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"output_type\":{\"type\":\"object\"}}"
      )
    }))

  it.effect("fails with NotFound for an unknown assistant", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ status: 404, json: { detail: "Assistant not found" } }))
      const error = yield* Assistants.run("nope", { input: [...input] }).pipe(
        Effect.provide(clientOf(server.url)),
        Effect.flip
      )
      assert.strictEqual(error._tag, "NotFound")
      assert.include(error.message, "Assistant not found")
    }))

  it.effect("checks the request first: input, output_type, include and overrides; nothing is sent", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: runJson("completed") }))
      const error = yield* Assistants.run("asst_1", {
        input: [],
        output_type: "xml" as "json",
        include: ["requirements_result.details" as "data_sources"],
        models: ["a", "b"],
        requirements: [{ name: "", description: "d" }]
      }).pipe(Effect.provide(clientOf(server.url)), Effect.flip)
      assert.strictEqual(error._tag, "ValidationError")
      if (error._tag !== "ValidationError") return
      assert.strictEqual(error.operation, "assistants.run")
      const paths = error.issues.map((issue) => issue.path)
      for (const expected of ["input", "output_type", "include[0]", "models", "requirements[0].name"]) {
        assert.isTrue(paths.includes(expected), `${expected} in ${paths.join(", ")}`)
      }
      assert.strictEqual(server.requests.length, 0)
    }))

  it.effect("input is required", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: runJson("completed") }))
      const error = yield* Assistants.run("asst_1", {} as AssistantSchema.AssistantRunRequest).pipe(
        Effect.provide(clientOf(server.url)),
        Effect.flip
      )
      assert.strictEqual(error._tag, "ValidationError")
      if (error._tag === "ValidationError") assert.strictEqual(error.issues[0]!.path, "input")
      assert.strictEqual(server.requests.length, 0)
    }))

  it.effect("refuses an empty assistant id", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: runJson("completed") }))
      const error = yield* Assistants.run("", { input: [...input] }).pipe(
        Effect.provide(clientOf(server.url)),
        Effect.flip
      )
      assert.strictEqual(error._tag, "ValidationError")
      assert.strictEqual(server.requests.length, 0)
    }))
})

describe("Assistants.runAndPoll", () => {
  const answer = (request: RecordedRequest, index: number) =>
    request.method === "POST"
      ? { json: runJson("in_progress") }
      : { json: runJson(index < 2 ? "in_progress" : "completed", { result: index < 2 ? null : "answer" }) }

  for (const path of ["run", "sample"] as const) {
    it.effect(`polls the run it starts (${path} path)`, () =>
      Effect.gen(function*() {
        const server = yield* testServer(answer)
        const fiber = yield* Assistants.runAndPoll("asst_1", { input: [...input] }, {
          path,
          schedule: Schedule.spaced("2 seconds")
        }).pipe(Effect.provide(clientOf(server.url)), fork)
        for (let expected = 1; expected <= 3; expected++) {
          assert.strictEqual(yield* untilRequests(server, expected), expected)
          yield* TestClock.adjust("1999 millis")
          assert.strictEqual(server.requests.length, expected)
          yield* TestClock.adjust("1 millis")
        }
        const run = yield* Fiber.join(fiber)
        assert.strictEqual(run.result, "answer")
        assert.deepStrictEqual(server.requests.map((request) => `${request.method} ${request.url}`), [
          `POST /studio/v1/assistants/asst_1${path === "run" ? "/run" : ""}`,
          "GET /studio/v1/maestro/runs/run-7",
          "GET /studio/v1/maestro/runs/run-7"
        ])
      }))
  }

  it.effect("a failed run becomes RunFailed", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: runJson("failed", { error: { message: "no budget" } }) }))
      const error = yield* Assistants.runAndPoll("asst_1", { input: [...input] }).pipe(
        Effect.provide(clientOf(server.url)),
        Effect.flip
      )
      assert.strictEqual(error._tag, "RunFailed")
      if (error._tag === "RunFailed") assert.strictEqual(error.reason, "no budget")
      assert.strictEqual(server.requests.length, 1)
    }))
})

// ---------------------------------------------------------------------------------------------------------
// the assistant resource
// ---------------------------------------------------------------------------------------------------------

/** A small assistant store behind the loopback server, as the real service answers. */
const assistantStore = () => {
  const store = new Map<string, Record<string, unknown>>()
  let next = 1
  const notFound = { status: 404, json: { detail: "Assistant not found" } }
  return (request: RecordedRequest) => {
    const url = new URL(request.url, "http://localhost")
    const match = /^\/studio\/v1\/assistants(?:\/([^/]+))?$/.exec(url.pathname)
    if (match === null) return notFound
    const id = match[1] === undefined ? undefined : decodeURIComponent(match[1])
    const body = request.body === "" ? {} : JSON.parse(request.body) as Record<string, unknown>
    const now = "2026-01-01T00:00:00Z"
    if (id === undefined && request.method === "POST") {
      const created = {
        id: `asst ${next++}`,
        object: "assistant",
        created_at: now,
        updated_at: now,
        organization_id: "org",
        user_id: "user",
        budget: "medium",
        ...body
      }
      store.set(created.id, created)
      return { json: created }
    }
    if (id === undefined && request.method === "GET") {
      const workspaces = url.searchParams.getAll("workspace_ids")
      const results = [...store.values()].filter((assistant) =>
        workspaces.length === 0 || workspaces.includes(String(assistant.workspace_id))
      )
      return { json: { results } }
    }
    if (id === undefined) return notFound
    const current = store.get(id)
    if (current === undefined) return notFound
    switch (request.method) {
      case "GET":
        return { json: current }
      case "PATCH": {
        const updated = { ...current, ...body, updated_at: "2026-01-02T00:00:00Z" }
        store.set(id, updated)
        return { json: updated }
      }
      case "DELETE":
        store.delete(id)
        return { json: { object: "assistant", deleted: true, id } }
      default:
        return { status: 405, json: { detail: "Method Not Allowed" } }
    }
  }
}

describe("Assistants resource", () => {
  it.effect("create, retrieve, list, update and delete round trip", () =>
    Effect.gen(function*() {
      const server = yield* testServer(assistantStore())
      const layer = clientOf(server.url)
      const created = yield* Assistants.create({
        name: "Travel agent",
        description: "Plans trips",
        system_prompt: "You plan trips.",
        requirements: [{ name: "short", description: "Under 100 words" }],
        tools: [{ type: "web_search", urls: ["example.com"] }],
        models: ["fpmodel-large"],
        budget: "low",
        response_language: "unset"
      }).pipe(Effect.provide(layer))
      assert.strictEqual(created.id, "asst 1")
      assert.strictEqual(created.object, "assistant")
      assert.strictEqual(created.name, "Travel agent")
      assert.strictEqual(created.budget, "low")
      assert.strictEqual(created.tools?.[0]?.type, "web_search")
      assert.deepStrictEqual(created.tools?.[0]?.urls, ["example.com"])
      assert.strictEqual(created.requirements?.[0]?.name, "short")
      assert.strictEqual(server.requests[0]!.method, "POST")
      assert.strictEqual(server.requests[0]!.url, "/studio/v1/assistants")
      assert.strictEqual(
        server.requests[0]!.body,
        "{\"name\":\"Travel agent\",\"description\":\"Plans trips\",\"system_prompt\":\"You plan trips.\","
          + "\"requirements\":[{\"name\":\"short\",\"description\":\"Under 100 words\"}],"
          + "\"tools\":[{\"type\":\"web_search\",\"urls\":[\"example.com\"]}],\"models\":[\"fpmodel-large\"],"
          + "\"budget\":\"low\",\"response_language\":\"unset\"}"
      )

      const retrieved = yield* Assistants.retrieve(created.id).pipe(Effect.provide(layer))
      assert.strictEqual(retrieved.id, "asst 1")
      assert.strictEqual(server.requests[1]!.url, "/studio/v1/assistants/asst%201")

      yield* Assistants.create({ name: "Second" }).pipe(Effect.provide(layer))
      const listed = yield* Assistants.list().pipe(Effect.provide(layer))
      assert.deepStrictEqual(listed.results.map((assistant) => assistant.name), ["Travel agent", "Second"])
      assert.strictEqual(server.requests[3]!.url, "/studio/v1/assistants")

      const updated = yield* Assistants.update(created.id, { budget: "high", visibility: "private" }).pipe(
        Effect.provide(layer)
      )
      assert.strictEqual(updated.budget, "high")
      assert.strictEqual(updated.visibility, "private")
      assert.strictEqual(updated.name, "Travel agent")
      assert.strictEqual(updated.updated_at, "2026-01-02T00:00:00Z")
      assert.strictEqual(server.requests[4]!.method, "PATCH")
      assert.strictEqual(server.requests[4]!.url, "/studio/v1/assistants/asst%201")
      assert.strictEqual(server.requests[4]!.body, "{\"visibility\":\"private\",\"budget\":\"high\"}")

      const deleted = yield* Assistants.delete(created.id).pipe(Effect.provide(layer))
      assert.deepStrictEqual({ ...deleted }, { id: "asst 1", object: "assistant", deleted: true })
      assert.strictEqual(server.requests[5]!.method, "DELETE")
      assert.strictEqual(server.requests[5]!.url, "/studio/v1/assistants/asst%201")

      const gone = yield* Assistants.retrieve(created.id).pipe(Effect.provide(layer), Effect.flip)
      assert.strictEqual(gone._tag, "NotFound")
    }))

  it.effect("list sends workspace filters as repeated query parameters", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: { results: [] } }))
      const listed = yield* Assistants.list({ workspaceIds: ["w 1", "w2"] }).pipe(Effect.provide(clientOf(server.url)))
      assert.deepStrictEqual(listed.results, [])
      assert.strictEqual(server.requests[0]!.url, "/studio/v1/assistants?workspace_ids=w+1&workspace_ids=w2")
    }))

  it.effect("NotFound for an unknown id on retrieve, update and delete", () =>
    Effect.gen(function*() {
      const server = yield* testServer(assistantStore())
      const layer = clientOf(server.url)
      const errors = yield* Effect.all([
        Effect.flip(Assistants.retrieve("unknown/id")),
        Effect.flip(Assistants.update("unknown/id", { name: "x" })),
        Effect.flip(Assistants.delete("unknown/id"))
      ]).pipe(Effect.provide(layer))
      assert.deepStrictEqual(errors.map((error) => error._tag), ["NotFound", "NotFound", "NotFound"])
      assert.isTrue(server.requests.every((request) => request.url === "/studio/v1/assistants/unknown%2Fid"))
    }))

  it.effect("reads the assistant fields of the service's OpenAPI, in either requirement shape", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({
        json: {
          id: "a1",
          object: "assistant",
          name: "Full",
          description: "d",
          created_at: "2026-01-01T00:00:00Z",
          updated_at: "2026-01-01T00:00:00Z",
          optimization: "cost",
          organization_id: "o",
          workspace_id: "w",
          user_id: "u",
          avatar: "https://example.com/a.png",
          is_archived: false,
          models: ["fpmodel-mini"],
          tools: [{ type: "mcp", server_label: "s", server_url: "https://mcp.example.com", mcp_id: "m1" }],
          requirements: [{ id: "r1", title: "Short", description: "One line", type: "text" }],
          budget: "medium",
          visibility: "public",
          assistant_type: "maestro",
          response_language: "unset",
          vibe_prompt: "calm",
          starter_questions: [{ title: "Start", prompt: "Plan a trip" }],
          system_prompt: "You plan trips.",
          workflow_config: { endpoint_url: "https://flow.example.com", headers: { a: "b" } },
          config_overrides: { x: 1 },
          some_new_field: true
        }
      }))
      const assistant = yield* Assistants.retrieve("a1").pipe(Effect.provide(clientOf(server.url)))
      assert.strictEqual(assistant.assistant_type, "maestro")
      assert.strictEqual(assistant.tools?.[0]?.mcp_id, "m1")
      assert.strictEqual(assistant.requirements?.[0]?.title, "Short")
      assert.strictEqual(assistant.starter_questions?.[0]?.prompt, "Plan a trip")
      assert.strictEqual(assistant.workflow_config?.endpoint_url, "https://flow.example.com")
    }))

  it.effect("a body that does not match the assistant schema is a DecodeError", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: { id: "a1" } }))
      const error = yield* Assistants.retrieve("a1").pipe(Effect.provide(clientOf(server.url)), Effect.flip)
      assert.strictEqual(error._tag, "DecodeError")
    }))

  it.effect("create and update check the configuration by the rules of a run; nothing is sent", () =>
    Effect.gen(function*() {
      const server = yield* testServer(assistantStore())
      const layer = clientOf(server.url)
      const createError = yield* Assistants.create({
        name: "",
        requirements: Array.from({ length: 11 }, (_, i) => ({ name: `r${i}`, description: "d" })),
        budget: "max" as "low"
      }).pipe(Effect.provide(layer), Effect.flip)
      assert.strictEqual(createError._tag, "ValidationError")
      if (createError._tag === "ValidationError") {
        const paths = createError.issues.map((issue) => issue.path)
        for (const expected of ["name", "requirements", "budget"]) {
          assert.isTrue(paths.includes(expected), `${expected} in ${paths.join(", ")}`)
        }
      }
      const updateError = yield* Assistants.update("a1", {
        models: ["a", "b"],
        optimization: "speed" as "cost"
      }).pipe(Effect.provide(layer), Effect.flip)
      assert.strictEqual(updateError._tag, "ValidationError")
      if (updateError._tag === "ValidationError") {
        assert.deepStrictEqual(updateError.issues.map((issue) => issue.path).sort(), ["models", "optimization"])
      }
      assert.strictEqual(server.requests.length, 0)
    }))
})
