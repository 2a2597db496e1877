import {
  configFromEnv,
  describe,
  Duration,
  Effect,
  expect,
  FetchHttpClient,
  Fiber,
  fork,
  type HttpClient,
  isDone,
  isFailure,
  isSuccess,
  it,
  Layer,
  makeRecording,
  type Outcome,
  outcome,
  packageDir,
  Redacted,
  Stream,
  transportLayers
} from "@studio-effect/line"
import { version } from "@studio-effect/line/src/internal/http/version.js"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Chat, type ChatSchema, StudioClient, type StudioError } from "studio-effect"
import { advanceBy, advanceUntil, waitUntil } from "./support/clock.js"
import { clientOf, type RecordedRequest, type ScriptedResponse, testKey, testServer } from "./support/testServer.js"

const completion = {
  id: "chat-0123456789abcdef0123456789abcdef",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
}
const request: ChatSchema.ChatRequest = { model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] }

/** Runs `Chat.create` against a scripted server and returns the outcome and what the server saw. */
const createAgainst = (
  handler: (request: RecordedRequest, index: number) => ScriptedResponse,
  options: Partial<StudioClient.StudioClientOptions> = {},
  transport: Layer.Layer<HttpClient.HttpClient> = FetchHttpClient.layer
) =>
  Effect.scoped(Effect.gen(function*() {
    const server = yield* testServer(handler)
    const result = yield* Chat.create(request).pipe(
      Effect.provide(clientOf(server.url, options, transport)),
      outcome
    )
    return { result, requests: server.requests }
  }))

const failure = (result: Outcome<unknown, StudioError.StudioError>) => {
  if (isSuccess(result)) throw new Error("expected a failure")
  return result.failure
}

for (const [name, transport] of transportLayers) {
  const against = (
    handler: (request: RecordedRequest, index: number) => ScriptedResponse,
    options: Partial<StudioClient.StudioClientOptions> = {}
  ) => createAgainst(handler, options, transport)

  describe(`status mapping (${name})`, () => {
    it.effect("400 with a detail string is a ValidationError from the service, not retried", () =>
      Effect.gen(function*() {
        const { requests, result } = yield* against(() => ({ status: 400, json: { detail: "bad input" } }))
        const error = failure(result)
        expect(error._tag).toBe("ValidationError")
        if (error._tag !== "ValidationError") return
        expect(error.source).toBe("service")
        expect(error.issues).toEqual([{ path: "(root)", message: "bad input" }])
        expect(requests.length).toBe(1)
      }))

    it.effect("422 FastAPI details become issues with their paths", () =>
      Effect.gen(function*() {
        const { result } = yield* against(() => ({
          status: 422,
          json: {
            detail: [{ loc: ["body", "messages", 0, "content"], msg: "field required", type: "missing" }]
          },
          headers: { "x-request-id": "req-42" }
        }))
        const error = failure(result)
        expect(error._tag).toBe("ValidationError")
        if (error._tag !== "ValidationError") return
        expect(error.issues.map((issue) => issue.path)).toEqual(["messages[0].content"])
        expect(error.requestId).toBe("req-42")
        expect(error.message).toContain("messages[0].content: field required")
        expect(error.message).toContain("req-42")
      }))

    for (const status of [401, 403]) {
      it.effect(`${status} is an AuthError carrying the service's detail, not retried`, () =>
        Effect.gen(function*() {
          const detail = "Forbidden: Bad or missing API token."
          const { requests, result } = yield* against(() => ({ status, json: { detail } }))
          const error = failure(result)
          expect(error._tag).toBe("AuthError")
          expect(error.message).toContain(detail)
          expect(requests.length).toBe(1)
        }))
    }

    it.effect("404 is NotFound", () =>
      Effect.gen(function*() {
        const { result } = yield* against(() => ({ status: 404, json: { detail: "Assistant not found" } }))
        const error = failure(result)
        expect(error._tag).toBe("NotFound")
        expect(error.message).toMatch(
          /^404 Assistant not found \(POST http:\/\/127\.0\.0\.1:\d+\/studio\/v1\/chat\/completions\)\. Check the id/
        )
      }))

    it.effect("429 past maxRetries is RateLimit with the Retry-After delay", () =>
      Effect.gen(function*() {
        const { result } = yield* against(
          () => ({ status: 429, json: { detail: "Too many requests" }, headers: { "retry-after": "7" } }),
          { maxRetries: 0 }
        )
        const error = failure(result)
        expect(error._tag).toBe("RateLimit")
        if (error._tag !== "RateLimit") return
        expect(error.retryAfter && Duration.toMillis(error.retryAfter)).toBe(7000)
      }))

    it.effect("another status is an ApiError with status, detail, raw body and request id", () =>
      Effect.gen(function*() {
        const { result } = yield* against(
          () => ({ status: 418, json: { detail: { reason: "teapot" } }, headers: { "request-id": "abc" } })
        )
        const error = failure(result)
        expect(error._tag).toBe("ApiError")
        if (error._tag !== "ApiError") return
        expect(error.status).toBe(418)
        expect(error.detail).toEqual({ reason: "teapot" })
        expect(error.body).toContain("teapot")
        expect(error.message).toMatch(/^418 .*teapot.*request id abc/)
      }))

    it.effect("a dropped connection is a TransportError", () =>
      Effect.gen(function*() {
        const { result } = yield* against(() => ({ drop: true }), { maxRetries: 0 })
        expect(failure(result)._tag).toBe("TransportError")
      }))

    it.effect("a refused connection names the full address and the cause, never a header", () =>
      Effect.gen(function*() {
        const url = yield* Effect.scoped(Effect.map(testServer(() => ({ json: completion })), (server) => server.url))
        const result = yield* Chat.create(request).pipe(
          Effect.provide(clientOf(url, { maxRetries: 0 }, transport)),
          outcome
        )
        const error = failure(result)
        expect(error._tag).toBe("TransportError")
        if (error._tag !== "TransportError") return
        expect(error.url).toBe(`${url}/studio/v1/chat/completions`)
        expect(error.message).toMatch(/ECONNREFUSED|refused/i)
        expect(JSON.stringify(error)).not.toContain("sk-test")
      }))

    it.effect("a 200 with a body of the wrong shape is a DecodeError; malformed JSON too", () =>
      Effect.gen(function*() {
        const wrong = yield* against(() => ({ json: { id: 1 } }))
        expect(failure(wrong.result)._tag).toBe("DecodeError")
        const malformed = yield* against(() => ({ body: "{\"id\":" }))
        expect(failure(malformed.result)._tag).toBe("DecodeError")
      }))
  })

  describe(`retries (${name})`, () => {
    it.effect("5xx is retried twice by default with backoff, then fails", () =>
      Effect.gen(function*() {
        const server = yield* testServer(() => ({ status: 503, json: { detail: "overloaded" } }))
        const fiber = yield* Chat.create(request).pipe(
          Effect.provide(clientOf(server.url, {}, transport)),
          outcome,
          fork
        )
        yield* advanceUntil(() => server.requests.length >= 3, "250 millis")
        const result = yield* Fiber.join(fiber)
        expect(failure(result)._tag).toBe("ApiError")
        expect(server.requests.length).toBe(3)
      }).pipe(Effect.scoped))

    it.effect("500, 502, 504 then success", () =>
      Effect.gen(function*() {
        const statuses = [500, 502, 504]
        const server = yield* testServer((_, index) =>
          index < statuses.length ? { status: statuses[index]!, json: { detail: "x" } } : { json: completion }
        )
        const fiber = yield* Chat.create(request).pipe(
          Effect.provide(clientOf(server.url, { maxRetries: 3 }, transport)),
          fork
        )
        yield* advanceUntil(() => server.requests.length >= 4, "250 millis")
        const result = yield* Fiber.join(fiber)
        expect(result.id).toBe(completion.id)
      }).pipe(Effect.scoped))

    it.effect("429 with Retry-After is retried after exactly that delay", () =>
      Effect.gen(function*() {
        const server = yield* testServer((_, index) =>
          index === 0
            ? { status: 429, json: { detail: "slow down" }, headers: { "retry-after": "3" } }
            : { json: completion }
        )
        const fiber = yield* Chat.create(request).pipe(
          Effect.provide(clientOf(server.url, {}, transport)),
          fork
        )
        yield* waitUntil(() => server.requests.length === 1)
        // Let the 429 reach the retry schedule, then check nothing is sent before 3 s.
        yield* advanceBy("2900 millis", "100 millis")
        expect(server.requests.length).toBe(1)
        yield* advanceUntil(() => server.requests.length === 2, "100 millis", 20)
        const result = yield* Fiber.join(fiber)
        expect(result.id).toBe(completion.id)
      }).pipe(Effect.scoped))

    it.effect("4xx other than 408/409/429 is not retried", () =>
      Effect.gen(function*() {
        const { requests, result } = yield* against(() => ({ status: 422, json: { detail: [] } }))
        expect(failure(result)._tag).toBe("ValidationError")
        expect(requests.length).toBe(1)
      }))
  })

  describe(`timeouts and interruption (${name})`, () => {
    it.effect("an attempt that gets no answer within the timeout fails with TimeoutError", () =>
      Effect.gen(function*() {
        const server = yield* testServer(() => ({ chunks: [], end: false }))
        const fiber = yield* Chat.create(request).pipe(
          Effect.provide(clientOf(server.url, { maxRetries: 0, timeout: "5 seconds" }, transport)),
          outcome,
          fork
        )
        yield* waitUntil(() => server.requests.length === 1)
        yield* advanceUntil(() => isDone(fiber), "1 second", 10)
        const result = yield* Fiber.join(fiber)
        const error = failure(result)
        expect(error._tag).toBe("TimeoutError")
        if (error._tag === "TimeoutError") expect(error.phase).toBe("attempt")
      }).pipe(Effect.scoped))

    it.effect("a stream idle past its idle timeout fails with TimeoutError", () =>
      Effect.gen(function*() {
        const first = JSON.stringify({
          id: "c",
          choices: [{ index: 0, delta: { role: "assistant" }, finish_reason: null }]
        })
        const server = yield* testServer(() => ({ chunks: [`data: ${first}\n\n`], end: false }))
        const fiber = yield* Chat.stream(request).pipe(
          Stream.runDrain,
          Effect.provide(clientOf(server.url, { streamIdleTimeout: "2 seconds" }, transport)),
          outcome,
          fork
        )
        yield* waitUntil(() => server.requests.length === 1)
        yield* advanceUntil(() => isDone(fiber), "500 millis", 20)
        const error = failure(yield* Fiber.join(fiber))
        expect(error._tag).toBe("TimeoutError")
        if (error._tag === "TimeoutError") expect(error.phase).toBe("stream-idle")
      }).pipe(Effect.scoped))

    it.effect("a slow consumer does not make a stream idle: only waiting on the network counts", () =>
      Effect.gen(function*() {
        const events = Array.from(
          { length: 8 },
          (_, i) =>
            `data: ${
              JSON.stringify({ id: "c", choices: [{ index: 0, delta: { content: `t${i}` }, finish_reason: null }] })
            }\n\n`
        )
        const server = yield* testServer(() => ({ chunks: [...events, "data: [DONE]\n\n"] }))
        const fiber = yield* Chat.stream(request).pipe(
          // each piece takes longer to handle than the idle timeout
          Stream.tap(() => Effect.sleep("3 seconds")),
          Chat.textDeltas,
          Stream.runCollect,
          Effect.provide(clientOf(server.url, { streamIdleTimeout: "2 seconds" }, transport)),
          outcome,
          fork
        )
        yield* waitUntil(() => server.requests.length === 1)
        yield* advanceUntil(() => isDone(fiber), "500 millis", 200)
        const result = yield* Fiber.join(fiber)
        expect(isSuccess(result) && [...result.success].join("")).toBe("t0t1t2t3t4t5t6t7")
      }).pipe(Effect.scoped))

    it.effect("interrupting a request closes its socket", () =>
      Effect.gen(function*() {
        const server = yield* testServer(() => ({ chunks: [], end: false }))
        const fiber = yield* Chat.create(request).pipe(
          Effect.provide(clientOf(server.url, {}, transport)),
          fork
        )
        yield* waitUntil(() => server.requests.length === 1)
        yield* Fiber.interrupt(fiber)
        yield* waitUntil(() => server.closedSockets() >= 1)
        expect(server.closedSockets()).toBeGreaterThanOrEqual(1)
      }).pipe(Effect.scoped))
  })
}

describe("configuration", () => {
  it.effect("without an API key, calls fail with AuthError and nothing is sent", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: completion }))
      const layer = StudioClient.layer({ baseUrl: server.url }).pipe(Layer.provide(FetchHttpClient.layer))
      const result = yield* Chat.create(request).pipe(Effect.provide(layer), outcome)
      expect(failure(result)._tag).toBe("AuthError")
      expect(server.requests.length).toBe(0)
    }).pipe(Effect.scoped))

  it.effect("layerConfig reads STUDIO_API_KEY and STUDIO_BASE_URL", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: completion }))
      const config = { STUDIO_API_KEY: "sk-env", STUDIO_BASE_URL: server.url }
      const layer = StudioClient.layerConfig().pipe(
        Layer.provide(FetchHttpClient.layer),
        Layer.provide(configFromEnv(config))
      )
      yield* Chat.create(request).pipe(Effect.provide(layer))
      expect(server.requests[0]!.headers["authorization"]).toBe("Bearer sk-env")
    }).pipe(Effect.scoped))

  it.effect("layerConfig reads AI21_API_KEY and AI21_API_HOST where the STUDIO_ names are missing or empty", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: completion }))
      const other = yield* testServer(() => ({ json: completion }))
      const keyOf = (env: Record<string, string>) =>
        Effect.gen(function*() {
          const layer = StudioClient.layerConfig().pipe(
            Layer.provide(FetchHttpClient.layer),
            Layer.provide(configFromEnv(env))
          )
          const before = server.requests.length
          yield* Chat.create(request).pipe(Effect.provide(layer))
          return server.requests.slice(before).map((sent) => sent.headers["authorization"])
        })
      expect(yield* keyOf({ AI21_API_KEY: "sk-ai21", AI21_API_HOST: server.url })).toEqual(["Bearer sk-ai21"])
      expect(
        yield* keyOf({ STUDIO_API_KEY: " ", AI21_API_KEY: "sk-ai21", STUDIO_BASE_URL: "", AI21_API_HOST: server.url })
      )
        .toEqual(["Bearer sk-ai21"])
      // the STUDIO_ names win over their aliases
      expect(
        yield* keyOf({
          STUDIO_API_KEY: "sk-studio",
          AI21_API_KEY: "sk-ai21",
          STUDIO_BASE_URL: server.url,
          AI21_API_HOST: other.url
        })
      )
        .toEqual(["Bearer sk-studio"])
      expect(other.requests.length).toBe(0)
    }).pipe(Effect.scoped))

  it.effect("layerConfig without STUDIO_API_KEY: every call fails with AuthError, nothing is sent", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: {} }))
      const layer = StudioClient.layerConfig().pipe(
        Layer.provide(FetchHttpClient.layer),
        Layer.provide(configFromEnv({ STUDIO_BASE_URL: server.url }))
      )
      const exit = yield* Chat.create({ model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] }).pipe(
        Effect.provide(Layer.orDie(layer)),
        outcome
      )
      const error = failure(exit)
      expect(error._tag).toBe("AuthError")
      expect(error.message).toContain("No API key is configured")
      expect(server.requests.length).toBe(0)
    }).pipe(Effect.scoped))

  it.effect("layerConfig without STUDIO_API_KEY or a service address and withoutKey \"reference\": the embedded service answers, saying so", () =>
    Effect.gen(function*() {
      const { layer: observe, recording } = makeRecording()
      const layer = StudioClient.layerConfig({ withoutKey: "reference" }).pipe(
        Layer.provide(FetchHttpClient.layer),
        Layer.provide(configFromEnv({})),
        Layer.provide(observe)
      )
      const reply = yield* Chat.create(request).pipe(Effect.provide(Layer.orDie(layer)))
      expect(reply.choices[0]?.message.content).toMatch(/\S/)
      const said = recording.logs.filter((line) => line.includes("reference service embedded in memory"))
      expect(said.length).toBeGreaterThan(0)
      expect(said.join("\n")).toMatch(/level=WARN/)
    }).pipe(Effect.scoped))

  it.effect("layerConfig without STUDIO_API_KEY but with STUDIO_BASE_URL and withoutKey \"reference\": AuthError, never the embedded service", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: completion }))
      const { layer: observe, recording } = makeRecording()
      for (
        const configured of [{ STUDIO_BASE_URL: server.url }, { STUDIO_BASE_URL: server.url, STUDIO_API_KEY: " " }]
      ) {
        const layer = StudioClient.layerConfig({ withoutKey: "reference" }).pipe(
          Layer.provide(FetchHttpClient.layer),
          Layer.provide(configFromEnv(configured)),
          Layer.provide(observe)
        )
        const result = yield* Chat.create(request).pipe(Effect.provide(Layer.orDie(layer)), outcome)
        expect(failure(result)._tag).toBe("AuthError")
        expect(failure(result).message).toContain("No API key is configured")
      }
      expect(server.requests.length).toBe(0)
      expect(recording.logs.join("\n")).toContain("every call fails with AuthError")
      expect(recording.logs.join("\n")).not.toContain("reference service embedded in memory, not to")
    }).pipe(Effect.scoped))

  it.effect("layerConfig with STUDIO_API_KEY and withoutKey \"reference\": the service is called", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: completion }))
      const config = { STUDIO_API_KEY: "sk-env", STUDIO_BASE_URL: server.url }
      const layer = StudioClient.layerConfig({ withoutKey: "reference" }).pipe(
        Layer.provide(FetchHttpClient.layer),
        Layer.provide(configFromEnv(config))
      )
      yield* Chat.create(request).pipe(Effect.provide(layer))
      expect(server.requests[0]!.headers["authorization"]).toBe("Bearer sk-env")
    }).pipe(Effect.scoped))

  it.effect("refuses http:// to a host other than loopback unless allowed", () =>
    Effect.gen(function*() {
      const build = (options: StudioClient.StudioClientOptions) =>
        Layer.build(StudioClient.layer(options).pipe(Layer.provide(FetchHttpClient.layer))).pipe(
          Effect.scoped,
          outcome
        )
      const refused = yield* build({ apiKey: Redacted.make("k"), baseUrl: "http://studio.example.com" })
      expect(isFailure(refused) && refused.failure._tag).toBe("ValidationError")
      if (isFailure(refused)) expect(refused.failure.message).toContain("baseUrl")
      const allowed = yield* build({
        apiKey: Redacted.make("k"),
        baseUrl: "http://studio.example.com",
        allowInsecureHttp: true
      })
      expect(isSuccess(allowed)).toBe(true)
      expect(isSuccess(yield* build({ apiKey: Redacted.make("k"), baseUrl: "http://127.0.0.1:9" }))).toBe(true)
      expect(isSuccess(yield* build({ apiKey: Redacted.make("k"), baseUrl: "https://api.example.com/" })))
        .toBe(true)
    }))

  it.effect("per-call options change headers and retries without rebuilding the layer", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ status: 500, json: { detail: "x" } }))
      const result = yield* Chat.create(request).pipe(
        StudioClient.withRequestOptions({ maxRetries: 0, headers: { "x-tenant": "acme" } }),
        Effect.provide(clientOf(server.url, { headers: { "x-app": "demo" } })),
        outcome
      )
      expect(failure(result)._tag).toBe("ApiError")
      expect(server.requests.length).toBe(1)
      expect(server.requests[0]!.headers["x-tenant"]).toBe("acme")
      expect(server.requests[0]!.headers["x-app"]).toBe("demo")
      // a per-call header wins over the same header set on the layer
      yield* Chat.create(request).pipe(
        StudioClient.withRequestOptions({ maxRetries: 0, headers: { "x-app": "per-call" } }),
        Effect.provide(clientOf(server.url, { headers: { "x-app": "demo" } })),
        outcome
      )
      expect(server.requests[1]!.headers["x-app"]).toBe("per-call")
    }).pipe(Effect.scoped))

  it.effect("sends the package version in User-Agent, and Accept and the key under the user's own headers", () =>
    Effect.gen(function*() {
      const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string }
      expect(version).toBe(pkg.version)
      const server = yield* testServer(() => ({ json: completion }))
      yield* Chat.create(request).pipe(Effect.provide(clientOf(server.url)))
      expect(server.requests[0]!.headers["user-agent"]).toBe(`studio-effect/${pkg.version}`)
      expect(server.requests[0]!.headers["accept"]).toBe("application/json")
      // the user's headers replace the defaults whatever their case; a call's own replace the user's
      yield* Chat.create(request).pipe(
        StudioClient.withRequestOptions({ headers: { "ACCEPT": "application/x-call" } }),
        Effect.provide(clientOf(server.url, { headers: { "user-agent": "app/2", "Accept": "application/x-app" } }))
      )
      expect(server.requests[1]!.headers["user-agent"]).toBe("app/2")
      expect(server.requests[1]!.headers["accept"]).toBe("application/x-call")
      expect(server.requests[1]!.headers["authorization"]).toBe(`Bearer ${testKey}`)
    }).pipe(Effect.scoped))

  it.effect("the base URL may carry a prefix, and a trailing slash is ignored", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: completion }))
      yield* Chat.create(request).pipe(Effect.provide(clientOf(`${server.url}/proxy/`)))
      expect(server.requests[0]!.url).toBe("/proxy/studio/v1/chat/completions")
    }).pipe(Effect.scoped))
})
