import {
  Cause,
  describe,
  Effect,
  Exit,
  expect,
  failures,
  FetchHttpClient,
  Fiber,
  findSpan,
  fork,
  isDone,
  it,
  Layer,
  logAtEveryLevel,
  makeRecording,
  Redacted,
  Stream,
  transportLayers
} from "@studio-effect/line"
import { scrub, secretsOf } from "@studio-effect/line/src/internal/http/scrub.js"
import * as fc from "fast-check"
import { Chat, Maestro, StudioClient, StudioError } from "studio-effect"
import { clientLayer, referenceServer, transportNames } from "./reliability/harness.js"
import { canaries, canaryHttp, canaryKey, canaryMcp, runRequest } from "./support/canaries.js"
import { advanceUntil, waitUntil } from "./support/clock.js"
import { type RecordedRequest, type ScriptedResponse, testServer } from "./support/testServer.js"

const completion = {
  id: "chat-1",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
}

/** Every way a call can end, each answered by the server as scripted. */
const scenarios: ReadonlyArray<readonly [string, ScriptedResponse]> = [
  ["success", { json: completion }],
  ["400", { status: 400, json: { detail: "bad" } }],
  ["401", { status: 401, json: { detail: "Forbidden: Bad or missing API token." } }],
  ["404", { status: 404, json: { detail: "missing" } }],
  ["422", { status: 422, json: { detail: [{ loc: ["body", "model"], msg: "bad", type: "x" }] } }],
  ["429", { status: 429, json: { detail: "slow" }, headers: { "retry-after": "1" } }],
  ["500", { status: 500, json: { detail: "boom" } }],
  ["malformed", { body: "{" }],
  ["wrong shape", { json: { id: 3 } }],
  ["dropped", { drop: true }],
  ["cut stream", { chunks: ["data: {\"id\":\"x\",\"choices\":[]}\n\n"] }]
]

/** Everything the request carried (key and body), echoed back in every place an error copies. */
const echo = (request: RecordedRequest) => `${request.headers["authorization"]} ${request.body}`
const echoed = (status: number) => (request: RecordedRequest): ScriptedResponse => ({
  status,
  headers: { "x-request-id": `req ${request.headers["authorization"]}`, "retry-after": "1" },
  json: { detail: `Invalid: ${echo(request)}`, echo: echo(request) }
})

/** A server echoing the key and the tool credentials in every kind of answer that becomes an error. */
const echoScenarios: ReadonlyArray<readonly [string, (request: RecordedRequest) => ScriptedResponse]> = [
  ...[400, 401, 403, 404, 409, 422, 429, 500, 503].map((status) => [`${status}`, echoed(status)] as const),
  ["422 FastAPI issues", (request) => ({
    status: 422,
    json: { detail: [{ loc: ["body", echo(request)], msg: echo(request), type: "x" }] }
  })],
  ["not JSON", (request) => ({ headers: { "request-id": echo(request) }, body: `oops ${echo(request)}` })],
  ["wrong shape", (request) => ({ json: { id: 3, echo: echo(request) } })],
  ["bad event", (request) => ({ chunks: [`data: {"id": 3, "echo": ${JSON.stringify(echo(request))}}\n\n`] })]
]

const showError = (error: unknown): string =>
  [String(error), JSON.stringify(error), (error as Error).message ?? "", (error as Error).stack ?? ""].join("\n")

describe("secrets never leave the SDK", () => {
  it.effect("the API key and tool credentials appear in no error, log line or span, in any outcome", () => {
    const { layer: observe, recording } = makeRecording()
    return Effect.gen(function*() {
      const seen: Array<string> = []
      for (const [, transport] of transportLayers) {
        for (const [name, answer] of scenarios) {
          yield* Effect.scoped(Effect.gen(function*() {
            const server = yield* testServer(() => answer)
            const client = StudioClient.layer({ apiKey: Redacted.make(canaryKey), baseUrl: server.url }).pipe(
              Layer.provide(transport)
            )
            const calls: ReadonlyArray<Effect.Effect<unknown, StudioError.StudioError, StudioClient.StudioClient>> = [
              Chat.create({ model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] }),
              Chat.stream({ model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] }).pipe(Stream.runDrain),
              Maestro.create(runRequest)
            ]
            for (const call of calls) {
              const fiber = yield* call.pipe(
                StudioClient.withRequestOptions({ maxRetries: 1 }),
                Effect.provide(client),
                Effect.exit,
                fork
              )
              yield* advanceUntil(() => isDone(fiber), "500 millis")
              const exit = yield* Fiber.join(fiber)
              if (Exit.isFailure(exit)) {
                for (const error of failures(exit.cause)) seen.push(showError(error))
                seen.push(Cause.pretty(exit.cause))
              }
            }
            // Tool credentials travel in the request body to the service, never as headers of the SDK's requests.
            for (const request of server.requests) {
              const headers = JSON.stringify(request.headers)
              expect(headers).not.toContain(canaryMcp)
              expect(headers).not.toContain(canaryHttp)
              expect(request.headers["authorization"]).toBe(`Bearer ${canaryKey}`)
            }
            const runBodies = server.requests.filter((request) => request.url === "/studio/v1/maestro/runs")
            for (const request of runBodies) expect(request.body).toContain(canaryMcp)
            expect(server.requests.length, name).toBeGreaterThan(0)
            // the operation's span is propagated to the service in place of the platform's
            for (const request of server.requests) expect(request.headers["traceparent"], name).toMatch(/^00-/)
          }))
        }
      }
      yield* logAtEveryLevel("recorder check")
      const everything = [...seen, recording.text()].join("\n")
      // The recording really captured errors, logs and spans: the assertions below can fail.
      expect(seen.length).toBeGreaterThan(10)
      expect(recording.logs.some((line) => line.includes("recorder check"))).toBe(true)
      expect(recording.logs.some((line) => line.includes("studio request attempt failed"))).toBe(true)
      const chatSpan = findSpan(recording, "studio.chat.create")
      expect(chatSpan._tag).toBe("Some")
      if (chatSpan._tag === "Some") expect(chatSpan.value.attributes.get("gen_ai.request.model")).toBe("fpmodel-mini")
      // the platform's own span per request is not made under the operation's: no span holds headers at all
      expect(recording.spans.some((span) => span.attributes.has("http.request.header.authorization"))).toBe(false)
      for (const canary of canaries) expect(everything).not.toContain(canary)
    }).pipe(Effect.provide(observe))
  })

  it.effect("a server that echoes the key and the tool credentials: scrubbed from every error kind", () => {
    const { layer: observe, recording } = makeRecording()
    return Effect.gen(function*() {
      const seen: Array<string> = []
      const tags = new Set<string>()
      for (const [, transport] of transportLayers) {
        for (const [name, answer] of echoScenarios) {
          yield* Effect.scoped(Effect.gen(function*() {
            const server = yield* testServer(answer)
            const client = StudioClient.layer({ apiKey: Redacted.make(canaryKey), baseUrl: server.url }).pipe(
              Layer.provide(transport)
            )
            const calls: ReadonlyArray<Effect.Effect<unknown, StudioError.StudioError, StudioClient.StudioClient>> = [
              Chat.create({ model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] }),
              Chat.stream({ model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] }).pipe(
                Stream.runDrain
              ),
              Maestro.create(runRequest)
            ]
            for (const call of calls) {
              const fiber = yield* call.pipe(
                StudioClient.withRequestOptions({ maxRetries: 0 }),
                Effect.provide(client),
                Effect.exit,
                fork
              )
              yield* advanceUntil(() => isDone(fiber), "500 millis")
              const exit = yield* Fiber.join(fiber)
              expect(Exit.isFailure(exit), name).toBe(true)
              if (Exit.isFailure(exit)) {
                for (const error of failures(exit.cause)) {
                  tags.add(error._tag)
                  seen.push(showError(error))
                }
                seen.push(Cause.pretty(exit.cause))
              }
            }
            // the server did echo the secrets: what it answered holds them
            expect(server.requests.some((request) => request.body.includes(canaryMcp)), name).toBe(true)
          }))
        }
      }
      expect([...tags].sort()).toEqual([
        "ApiError",
        "AuthError",
        "DecodeError",
        "NotFound",
        "RateLimit",
        "TransportError",
        "ValidationError"
      ])
      yield* logAtEveryLevel("recorder check")
      // errors, and every log line and span of these calls (the recording did capture them)
      expect(recording.logs.some((line) => line.includes("recorder check"))).toBe(true)
      expect(recording.spans.some((span) => span.name === "studio.chat.create")).toBe(true)
      const everything = [...seen, recording.text()].join("\n")
      expect(everything).toContain("<redacted>")
      for (const canary of canaries) expect(everything).not.toContain(canary)
    }).pipe(Effect.provide(observe))
  })

  it.effect("a failed run whose message quotes the key and the tool credentials: RunFailed scrubbed", () =>
    Effect.gen(function*() {
      for (const transport of transportNames) {
        yield* Effect.scoped(Effect.gen(function*() {
          const server = yield* referenceServer({
            apiKeys: [canaryKey],
            failRun: (run) => `the tool server refused ${JSON.stringify(run.tools)} sent with ${canaryKey}`
          })
          const layer = clientLayer(server.url, transport)
          const fiber = yield* Maestro.createAndPoll(runRequest).pipe(
            Effect.provide(layer),
            Effect.flip,
            fork
          )
          yield* advanceUntil(() => isDone(fiber), "1 second")
          const error = yield* Fiber.join(fiber)
          expect(error._tag).toBe("RunFailed")
          const shown = [showError(error), Cause.pretty(Cause.fail(error))].join("\n")
          expect(shown).toContain("the tool server refused")
          expect(shown).toContain("<redacted>")
          for (const canary of canaries) expect(shown).not.toContain(canary)
          // polling by id alone knows only the key: that is scrubbed too
          if (error._tag !== "RunFailed") return
          const byId = yield* Maestro.poll(error.run.id).pipe(Effect.provide(layer), Effect.flip)
          expect(showError(byId)).not.toContain(canaryKey)
        }))
      }
    }))

  it("property: any key and credentials, echoed anywhere in any error kind, in any form, are scrubbed", () => {
    // secrets from characters that cannot form the replacement text, with quotes, backslashes and inner
    // spaces so that their JSON-escaped and URL-encoded forms differ
    const secret = fc.stringMatching(/^[A-Z0-9_"\\/-][A-Z0-9_"\\ /-]{2,22}[A-Z0-9_"\\/-]$/)
    const filler = fc.string({ maxLength: 12 })
    fc.assert(fc.property(
      secret,
      fc.array(secret, { maxLength: 3 }),
      fc.array(fc.tuple(filler, fc.nat(), fc.constantFrom("raw", "json", "url", "bare")), {
        minLength: 1,
        maxLength: 6
      }),
      (key, credentials, pieces) => {
        const all = [key, ...credentials]
        const text = pieces.map(([before, which, form]) => {
          const value = all[which % all.length]!
          const shown = form === "json"
            ? JSON.stringify(value).slice(1, -1)
            : form === "url"
            ? encodeURIComponent(value)
            : form === "bare"
            ? `Bearer ${value}`
            : value
          return before + shown
        }).join("")
        const body = {
          tools: credentials.map((value) => ({ type: "mcp", headers: { Authorization: `Bearer ${value}` } }))
        }
        const secrets = secretsOf(Redacted.make(key), body)
        const errors = [
          new StudioError.ApiError({ status: 500, body: text, detail: { text, list: [text] }, requestId: text }),
          new StudioError.AuthError({ status: 401, detail: text, requestId: text }),
          new StudioError.ValidationError({
            operation: "chat",
            source: "service",
            issues: [new StudioError.ValidationIssue({ path: text, message: text })]
          }),
          new StudioError.TransportError({ method: "POST", url: text, reason: text }),
          new StudioError.NotFound({ detail: text, url: text, method: "GET" }),
          new StudioError.DecodeError({ operation: "chat", reason: text, body: text })
        ]
        for (const error of errors) {
          const shown = showError(scrub(error, secrets))
          for (const value of all) {
            expect(shown).not.toContain(value)
            expect(shown).not.toContain(encodeURIComponent(value))
          }
        }
      }
    ))
  })

  it.effect("span attributes follow the GenAI conventions, with usage from the response", () =>
    Effect.gen(function*() {
      const { layer, recording } = makeRecording()
      yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* testServer(() => ({ json: completion }))
        yield* Chat.create({
          model: "fpmodel-large",
          messages: [{ role: "user", content: "Hi" }],
          max_tokens: 64,
          temperature: 0.2
        }).pipe(
          Effect.provide(StudioClient.layer({ apiKey: Redacted.make(canaryKey), baseUrl: server.url })),
          Effect.provide(FetchHttpClient.layer)
        )
        yield* waitUntil(() => recording.spans.length > 0)
      })).pipe(Effect.provide(layer))
      const span = findSpan(recording, "studio.chat.create")
      expect(span._tag).toBe("Some")
      if (span._tag !== "Some") return
      const attributes = Object.fromEntries(span.value.attributes)
      expect(attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "fpmodel-large",
        "gen_ai.request.max_tokens": 64,
        "gen_ai.request.temperature": 0.2,
        "gen_ai.response.id": "chat-1",
        "gen_ai.usage.input_tokens": 1,
        "gen_ai.usage.output_tokens": 1
      })
    }))
})
