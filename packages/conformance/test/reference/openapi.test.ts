import { describe, Effect, expect, it, TestClock } from "@studio-effect/line"
import * as Reference from "studio-effect/reference"
import { type Answer, call, chunkSchema, errorsOf, events, openApiErrors, operations } from "./support.js"

const chatOp = "POST /studio/v1/chat/completions"
const createRunOp = "POST /studio/v1/maestro/runs"
const getRunOp = "GET /studio/v1/maestro/runs/{execution_id}"
const listOp = "GET /studio/v1/assistants"
const createOp = "POST /studio/v1/assistants"
const getOp = "GET /studio/v1/assistants/{assistant_id}"
const deleteOp = "DELETE /studio/v1/assistants/{assistant_id}"
const patchOp = "PATCH /studio/v1/assistants/{assistant_id}"
const runOp = "POST /studio/v1/assistants/{assistant_id}/run"

const seen = new Map<string, Set<number>>()

const conforms = (operation: string, answer: Answer, status: number) => {
  expect(answer.status).toBe(status)
  expect(answer.headers["content-type"]).toMatch(/^application\/json/)
  expect(openApiErrors(operation, answer)).toEqual([])
  const statuses = seen.get(operation) ?? new Set()
  statuses.add(status)
  seen.set(operation, statuses)
}

const tools = [
  { type: "web_search", urls: ["example.com", "https://news.example.org", "docs.example.com", "example.com/blog"] },
  { type: "file_search", labels: ["hr"], file_ids: ["f1"] },
  { type: "mcp", server_label: "tools", server_url: "https://mcp.example.com/sse", headers: { Authorization: "x" } },
  { type: "http", function: { name: "lookup", description: "d", parameters: {} }, endpoint: { url: "https://x.io" } }
]

describe("every answer validates against the OpenAPI", () => {
  it.effect("chat completions: 200 (plain, tools, JSON mode, n), 200 stream chunks, 422, 401", () =>
    Effect.gen(function*() {
      const messages = [{ role: "user", content: "What is in the documents about Paris?" }]
      conforms(
        chatOp,
        yield* call("POST", "/studio/v1/chat/completions", { body: { model: "fpmodel-mini", messages } }),
        200
      )
      conforms(
        chatOp,
        yield* call("POST", "/studio/v1/chat/completions", {
          body: {
            model: "fpmodel-large",
            messages,
            n: 3,
            temperature: 1,
            max_tokens: 7,
            stop: ["\n"],
            response_format: { type: "json_object" },
            documents: [{ content: "Paris is a city.", metadata: [{ key: "url", value: "https://x" }] }]
          }
        }),
        200
      )
      conforms(
        chatOp,
        yield* call("POST", "/studio/v1/chat/completions", {
          body: {
            model: "fpmodel-mini",
            messages,
            tools: [{ type: "function", function: { name: "lookup", description: "Looks up", parameters: {} } }]
          }
        }),
        200
      )
      const streamed = yield* call("POST", "/studio/v1/chat/completions", {
        body: { model: "fpmodel-mini", messages, stream: true }
      })
      expect(streamed.status).toBe(200)
      expect(streamed.headers["content-type"]).toMatch(/^text\/event-stream/)
      const data = events(streamed.text)
      expect(data.at(-1)).toBe("[DONE]")
      for (const payload of data.slice(0, -1)) expect(errorsOf(chunkSchema, JSON.parse(payload))).toEqual([])
      conforms(chatOp, yield* call("POST", "/studio/v1/chat/completions", { body: { model: "fpmodel-mini" } }), 422)
      conforms(chatOp, yield* call("POST", "/studio/v1/chat/completions", { raw: "{" }), 422)
      conforms(chatOp, yield* call("POST", "/studio/v1/chat/completions", { body: {}, key: null }), 401)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("runs: create and retrieve, in progress and completed, with every include; 422, 404, 401", () =>
    Effect.gen(function*() {
      const created = yield* call("POST", "/studio/v1/maestro/runs", {
        body: {
          input: "Write a short note",
          requirements: [{ name: "short", description: "at most 20 words", is_mandatory: true }],
          tools,
          include: ["data_sources", "requirements_result"],
          budget: "high"
        }
      })
      conforms(createRunOp, created, 200)
      conforms(getRunOp, yield* call("GET", `/studio/v1/maestro/runs/${created.json.id}`), 200)
      yield* TestClock.adjust("1 minute")
      const done = yield* call("GET", `/studio/v1/maestro/runs/${created.json.id}`)
      expect(done.json.status).toBe("completed")
      conforms(getRunOp, done, 200)
      conforms(createRunOp, yield* call("POST", "/studio/v1/maestro/runs", { body: { budget: "huge" } }), 422)
      conforms(getRunOp, yield* call("GET", "/studio/v1/maestro/runs/nope"), 404)
      conforms(getRunOp, yield* call("GET", "/studio/v1/maestro/runs/nope", { key: null }), 401)
      conforms(createRunOp, yield* call("POST", "/studio/v1/maestro/runs", { body: {}, key: null }), 401)
    }).pipe(Effect.provide(Reference.layer({ failRun: () => undefined }))))

  it.effect("a failed run validates", () =>
    Effect.gen(function*() {
      const created = yield* call("POST", "/studio/v1/maestro/runs", { body: { input: "x" } })
      yield* TestClock.adjust("1 minute")
      const failed = yield* call("GET", `/studio/v1/maestro/runs/${created.json.id}`)
      expect(failed.json).toMatchObject({ status: "failed", result: null, error: { message: "engine down" } })
      conforms(getRunOp, failed, 200)
    }).pipe(Effect.provide(Reference.layer({ failRun: () => "engine down" }))))

  it.effect("assistants: create, list, retrieve, modify, run (both paths), delete; 422, 404, 401", () =>
    Effect.gen(function*() {
      const created = yield* call("POST", "/studio/v1/assistants", {
        body: {
          name: "Helper",
          description: "Helps",
          requirements: [{ name: "brief", description: "at most 30 words" }],
          tools,
          budget: "low",
          response_language: "french",
          system_prompt: "Be brief."
        }
      })
      conforms(createOp, created, 200)
      const id = created.json.id as string
      conforms(createOp, yield* call("POST", "/studio/v1/assistants", { body: { name: "Bare" } }), 200)
      conforms(listOp, yield* call("GET", "/studio/v1/assistants"), 200)
      conforms(getOp, yield* call("GET", `/studio/v1/assistants/${id}`), 200)
      conforms(patchOp, yield* call("PATCH", `/studio/v1/assistants/${id}`, { body: { budget: "medium" } }), 200)
      const include = ["data_sources", "requirements_result", "requirements_result.metadata"]
      const run = yield* call("POST", `/studio/v1/assistants/${id}/run`, {
        body: { input: [{ role: "user", content: "Hi" }], include }
      })
      conforms(runOp, run, 200)
      conforms(
        runOp,
        yield* call("POST", `/studio/v1/assistants/${id}`, { body: { input: [{ role: "user", content: "Hi" }] } }),
        200
      )
      yield* TestClock.adjust("1 minute")
      conforms(getRunOp, yield* call("GET", `/studio/v1/maestro/runs/${run.json.id}`), 200)
      conforms(createOp, yield* call("POST", "/studio/v1/assistants", { body: { description: "no name" } }), 422)
      conforms(patchOp, yield* call("PATCH", `/studio/v1/assistants/${id}`, { body: { budget: "max" } }), 422)
      conforms(runOp, yield* call("POST", `/studio/v1/assistants/${id}/run`, { body: { input: [] } }), 422)
      conforms(deleteOp, yield* call("DELETE", `/studio/v1/assistants/${id}`), 200)
      for (
        const [operation, method] of [[getOp, "GET"], [patchOp, "PATCH"], [deleteOp, "DELETE"], [
          runOp,
          "POST"
        ]] as const
      ) {
        conforms(
          operation,
          yield* call(method, `/studio/v1/assistants/${id}${operation === runOp ? "/run" : ""}`, {
            body: { input: [{ role: "user", content: "x" }] }
          }),
          404
        )
      }
      for (
        const [operation, method, path] of [
          [listOp, "GET", ""],
          [createOp, "POST", ""],
          [getOp, "GET", "/x"],
          [patchOp, "PATCH", "/x"],
          [deleteOp, "DELETE", "/x"],
          [runOp, "POST", "/x/run"]
        ] as const
      ) {
        conforms(operation, yield* call(method, `/studio/v1/assistants${path}`, { key: null, body: {} }), 401)
      }
    }).pipe(Effect.provide(Reference.layer())))

  it("covered every operation of the OpenAPI with each status it can answer", () => {
    for (const operation of operations) {
      const expected = [200, 401]
      if (operation.startsWith("POST") || operation.startsWith("PATCH")) expected.push(422)
      if (operation.includes("{")) expected.push(404)
      expect([...(seen.get(operation) ?? [])].sort(), operation).toEqual(expect.arrayContaining(expected))
    }
  })
})
