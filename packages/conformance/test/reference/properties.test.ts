/**
 * Property tests of the reference service: any valid request gets a 200 that decodes with the client's
 * schemas; any invalid one gets a 4xx naming the path, never a 500; random bytes never crash it.
 */
import { describe, Effect, expect, type HttpClient, it, Layer, Schema } from "@studio-effect/line"
import AjvModule from "ajv"
import * as fc from "fast-check"
import { ChatSchema, MaestroSchema } from "studio-effect"
import { chatModels, runModels } from "studio-effect-core/wire/models"
import * as Reference from "studio-effect/reference"
import { validChatRequest, validRunRequest } from "../validation/arbitraries.js"
import { call, events } from "./support.js"

const Ajv = (AjvModule as any).default ?? AjvModule
const ajv = new Ajv({ strict: false })

const runs = 60

/** Runs an effect against a service that `layer` builds for it alone (live clock). */
const service = <A, E>(effect: Effect.Effect<A, E, HttpClient.HttpClient>, layer: Layer.Layer<HttpClient.HttpClient>) =>
  Effect.runPromise(Effect.provide(effect, layer))

const offeredChat = validChatRequest.chain((request) =>
  fc.constantFrom(...chatModels).map((model) => ({ ...request, model }))
)

const offeredRun = validRunRequest.chain((request) =>
  fc.constantFrom(...runModels).map((model) => request.models === undefined ? request : { ...request, models: [model] })
)

/** JSON Schema with the interface's `float` read as `number`, for ajv. */
const asJsonSchema = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema ?? {}), (key, value) => key === "type" && value === "float" ? "number" : value)

describe("any valid request gets a valid 200", () => {
  it.effect("chat completions, whole or streamed, decode with the client's schemas", () =>
    Effect.promise(() => {
      const layer = Reference.layer()
      return fc.assert(
        fc.asyncProperty(offeredChat, (request) =>
          service(
            Effect.gen(function*() {
              const answer = yield* call("POST", "/studio/v1/chat/completions", { body: request })
              expect(answer.status, answer.text).toBe(200)
              if (request.stream === true) {
                const data = events(answer.text)
                expect(data.at(-1)).toBe("[DONE]")
                const chunks = data.slice(0, -1).map((d) =>
                  Schema.decodeUnknownSync(ChatSchema.ChatCompletionChunk)(JSON.parse(d))
                )
                expect(chunks.filter((c) => c.usage !== null)).toHaveLength(1)
                return
              }
              const completion = Schema.decodeUnknownSync(ChatSchema.ChatCompletion)(answer.json)
              expect(completion.choices).toHaveLength(request.n ?? 1)
              const { usage } = completion
              expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens)
              for (const choice of completion.choices) {
                if (choice.finish_reason === "length") {
                  expect(request.max_tokens).toBeDefined()
                }
                for (const toolCall of choice.message.tool_calls ?? []) {
                  const tool = request.tools?.find((t) => t.function.name === toolCall.function.name)
                  expect(tool).toBeDefined()
                  const validate = ajv.compile(asJsonSchema(tool?.function.parameters))
                  expect(validate(JSON.parse(toolCall.function.arguments)), JSON.stringify(validate.errors)).toBe(true)
                }
              }
            }),
            layer
          )),
        { numRuns: runs }
      )
    }))

  it.effect("runs decode with the client's schemas", () =>
    Effect.promise(() => {
      const layer = Reference.layer()
      return fc.assert(
        fc.asyncProperty(offeredRun, (request) =>
          service(
            Effect.gen(function*() {
              const answer = yield* call("POST", "/studio/v1/maestro/runs", { body: request })
              expect(answer.status, answer.text).toBe(200)
              const run = Schema.decodeUnknownSync(MaestroSchema.MaestroRun)(answer.json)
              expect(run.status).toBe("in_progress")
              const again = yield* call("GET", `/studio/v1/maestro/runs/${run.id}`)
              expect(again.status).toBe(200)
              Schema.decodeUnknownSync(MaestroSchema.MaestroRun)(again.json)
            }),
            layer
          )),
        { numRuns: runs }
      )
    }))
})

/** A breach of one rule, and where the service must say it is. */
interface Breach {
  readonly path: string
  readonly body: Record<string, unknown>
}

const chatBreaches = (request: Record<string, unknown>): fc.Arbitrary<Breach> =>
  fc.oneof(
    fc.constant({ path: "body.model", body: { ...request, model: undefined } }),
    fc.constant({ path: "body.messages", body: { ...request, messages: [] } }),
    fc.double({ min: 2.0001, max: 1e6, noNaN: true }).map((t) => ({
      path: "body.temperature",
      body: { ...request, temperature: t }
    })),
    fc.double({ min: 1.0001, max: 10, noNaN: true }).map((p) => ({
      path: "body.top_p",
      body: { ...request, top_p: p }
    })),
    fc.integer({ min: 4097, max: 1e6 }).map((m) => ({ path: "body.max_tokens", body: { ...request, max_tokens: m } })),
    fc.integer({ min: 17, max: 1000 }).map((n) => ({ path: "body.n", body: { ...request, n, stream: false } })),
    fc.constant({ path: "body.n", body: { ...request, n: 2, temperature: 0.5, stream: true, tools: undefined } }),
    fc.constant({ path: "body.temperature", body: { ...request, n: 3, temperature: 0, stream: false } }),
    fc.constant({
      path: "body.stream",
      body: { ...request, n: 1, stream: true, tools: [{ type: "function", function: { name: "f", description: "d" } }] }
    }),
    fc.constant({ path: "body.stop", body: { ...request, stop: "x".repeat(65537) } }),
    fc.constant({
      path: "body.messages.0.tool_call_id",
      body: { ...request, messages: [{ role: "tool", content: "out", tool_call_id: "missing" }] }
    }),
    fc.constant({ path: "body.messages.0", body: { ...request, messages: [{ role: "robot", content: "x" }] } })
  )

const runBreaches = (request: Record<string, unknown>): fc.Arbitrary<Breach> =>
  fc.oneof(
    fc.constant({ path: "body.budget", body: { ...request, budget: "maximal" } }),
    fc.constant({ path: "body.response_language", body: { ...request, response_language: "klingon" } }),
    fc.constant({ path: "body.models", body: { ...request, models: ["fpmodel-mini", "fpmodel-large"] } }),
    fc.constant({
      path: "body.requirements",
      body: { ...request, requirements: Array.from({ length: 11 }, (_, i) => ({ name: `r${i}`, description: "d" })) }
    }),
    fc.constant({
      path: "body.requirements.0.description",
      body: { ...request, requirements: [{ name: "long", description: "word ".repeat(129) }] }
    }),
    fc.constant({
      path: "body.tools.0.urls.0",
      body: { ...request, tools: [{ type: "web_search", urls: ["not a url"] }] }
    }),
    fc.constant({ path: "body.tools.0", body: { ...request, tools: [{ type: "fax" }] } }),
    fc.constant({
      path: "body.input.1.role",
      body: { ...request, input: [{ role: "user", content: "a" }, { role: "user", content: "b" }] }
    }),
    fc.constant({ path: "body.include.0", body: { ...request, include: ["everything"] } })
  )

const namesPath = (detail: ReadonlyArray<{ readonly loc: ReadonlyArray<string | number> }>, path: string) =>
  detail.some((issue) => issue.loc.join(".").startsWith(path))

describe("any invalid request gets a 4xx naming the path, never a 500", () => {
  it.effect("chat requests with one rule broken", () =>
    Effect.promise(() => {
      const layer = Reference.layer()
      return fc.assert(
        fc.asyncProperty(offeredChat.chain((request) => chatBreaches(request as Record<string, unknown>)), (breach) =>
          service(
            Effect.gen(function*() {
              const answer = yield* call("POST", "/studio/v1/chat/completions", { body: breach.body })
              expect(answer.status, answer.text).toBe(422)
              expect(answer.headers["content-type"]).toMatch(/^application\/json/)
              expect(namesPath(answer.json.detail, breach.path), `${breach.path} in ${answer.text}`).toBe(true)
            }),
            layer
          )),
        { numRuns: runs }
      )
    }))

  it.effect("run requests with one rule broken", () =>
    Effect.promise(() => {
      const layer = Reference.layer()
      return fc.assert(
        fc.asyncProperty(offeredRun.chain((request) => runBreaches(request as Record<string, unknown>)), (breach) =>
          service(
            Effect.gen(function*() {
              const answer = yield* call("POST", "/studio/v1/maestro/runs", { body: breach.body })
              expect(answer.status, answer.text).toBe(422)
              expect(namesPath(answer.json.detail, breach.path), `${breach.path} in ${answer.text}`).toBe(true)
            }),
            layer
          )),
        { numRuns: runs }
      )
    }))

  it.effect("any JSON value as the body of any operation gets 200 or a 4xx with a JSON detail", () =>
    Effect.promise(() => {
      const layer = Reference.layer()
      const paths = [
        ["POST", "/studio/v1/chat/completions"],
        ["POST", "/studio/v1/maestro/runs"],
        ["POST", "/studio/v1/assistants"],
        ["PATCH", "/studio/v1/assistants/missing"],
        ["POST", "/studio/v1/assistants/missing/run"]
      ] as const
      return fc.assert(
        fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue(), ([method, path], body) =>
          service(
            Effect.gen(function*() {
              const answer = yield* call(method, path, { raw: JSON.stringify(body) })
              expect(answer.status === 200 || (answer.status >= 400 && answer.status < 500), answer.text).toBe(true)
              expect(answer.json).toHaveProperty(answer.status === 200 ? "id" : "detail")
            }),
            layer
          )),
        { numRuns: runs * 2 }
      )
    }))
})

describe("random bytes as a body never crash the service", () => {
  it.effect("every operation answers 4xx, and the service keeps answering", () =>
    Effect.promise(() => {
      const layer = Reference.layer()
      return fc.assert(
        fc.asyncProperty(
          fc.constantFrom("/studio/v1/chat/completions", "/studio/v1/maestro/runs", "/studio/v1/assistants"),
          fc.uint8Array({ maxLength: 512 }),
          (path, bytes) =>
            service(
              Effect.gen(function*() {
                const answer = yield* call("POST", path, { raw: bytes })
                expect(answer.status, answer.text).toBeGreaterThanOrEqual(400)
                expect(answer.status, answer.text).toBeLessThan(500)
                expect(answer.json.detail[0].loc[0]).toBe("body")
                const healthy = yield* call("GET", "/studio/v1/assistants")
                expect(healthy.status).toBe(200)
              }),
              layer
            )
        ),
        { numRuns: runs * 2 }
      )
    }))
})
