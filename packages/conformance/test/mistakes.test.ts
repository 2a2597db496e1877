/**
 * Clear answers to common mistakes: a base URL with the API's own path, a route the service does not
 * know, `layerConfig` without a key, durations in messages, and every error's message ending with what to
 * do next. Against the reference service over a real socket on 127.0.0.1, on both transports.
 */
import {
  configLayer,
  describe,
  Duration,
  Effect,
  errorKinds,
  expect,
  FetchHttpClient,
  isFailure,
  isSuccess,
  it,
  Layer,
  outcome,
  Redacted,
  redactedConfig,
  Schema,
  stringConfig
} from "@studio-effect/line"
import * as fc from "fast-check"
import { Chat, Maestro, MaestroSchema, StudioClient, StudioError } from "studio-effect"
import { canaryKey, chatRequest, clientLayer, referenceServer, transports } from "./reliability/harness.js"

const layerOf = (options: StudioClient.StudioClientOptions) =>
  StudioClient.layer(options).pipe(Layer.provide(FetchHttpClient.layer))

const build = (options: StudioClient.StudioClientOptions) => Layer.build(layerOf(options)).pipe(Effect.scoped, outcome)

/** The client the options build, or why they are refused. */
const baseUrlOf = (options: StudioClient.StudioClientOptions) =>
  Effect.gen(function*() {
    return yield* StudioClient.StudioClient
  }).pipe(Effect.provide(layerOf(options)), outcome)

describe("base URL", () => {
  it.effect("one ending in /studio/v1 (what other SDKs take) is accepted without it", () =>
    Effect.gen(function*() {
      for (
        const given of ["https://api.ai21.com/studio/v1", "https://api.ai21.com/studio/v1/", "https://api.ai21.com"]
      ) {
        const built = yield* baseUrlOf({ apiKey: Redacted.make("k"), baseUrl: given })
        if (isFailure(built)) throw new Error(built.failure.message)
        expect(built.success.baseUrl).toBe("https://api.ai21.com")
      }
      const prefixed = yield* baseUrlOf({
        apiKey: Redacted.make("k"),
        baseUrl: "https://proxy.example.com/ai/studio/v1"
      })
      if (isFailure(prefixed)) throw new Error(prefixed.failure.message)
      expect(prefixed.success.baseUrl).toBe("https://proxy.example.com/ai")
    }))

  it.effect("one ending in /v1 alone is refused, with the address to use", () =>
    Effect.gen(function*() {
      const refused = yield* build({ apiKey: Redacted.make("k"), baseUrl: "https://api.ai21.com/v1" })
      expect(isFailure(refused)).toBe(true)
      if (isFailure(refused)) {
        expect(refused.failure._tag).toBe("ValidationError")
        expect(refused.failure.message).toContain("ends in /v1")
        expect(refused.failure.message).toContain("use https://api.ai21.com (without /v1)")
      }
    }))

  it.effect("a relative address or one with a query is refused, naming an address to use", () =>
    Effect.gen(function*() {
      for (const given of ["api.ai21.com", "https://api.ai21.com?x=1"]) {
        const refused = yield* build({ apiKey: Redacted.make("k"), baseUrl: given })
        expect(isFailure(refused) && refused.failure.message).toMatch(/baseUrl: .*https:\/\/api\.ai21\.com/)
      }
    }))

  /** A path segment that is neither empty nor a dot segment. */
  const segment = fc.oneof(fc.stringMatching(/^[a-z0-9-]{1,8}$/), fc.constantFrom("studio", "v1"))
  const prefix = fc.array(segment, { maxLength: 3 }).map((parts) => parts.map((part) => `/${part}`).join(""))

  it.effect("property: …/studio/v1 is dropped, …/v1 refused, any other path kept (trailing slashes aside)", () =>
    Effect.promise(() =>
      fc.assert(fc.asyncProperty(
        prefix,
        fc.constantFrom("", "/studio/v1", "/v1"),
        fc.constantFrom("", "/", "//"),
        async (path, ending, slashes) => {
          const given = `https://api.example.com${path}${ending}${slashes}`
          const built = await Effect.runPromise(baseUrlOf({ apiKey: Redacted.make("k"), baseUrl: given }))
          const kept = `${path}${ending}`
          if (/\/studio\/v1$/.test(kept)) {
            if (isFailure(built)) throw new Error(built.failure.message)
            expect(built.success.baseUrl).toBe(
              `https://api.example.com${kept.replace(/\/studio\/v1$/, "")}`
            )
          } else if (/\/v1$/.test(kept)) {
            expect(isFailure(built) && built.failure.message).toContain(
              `use https://api.example.com${kept.replace(/\/v1$/, "")} (without /v1)`
            )
          } else {
            if (isFailure(built)) throw new Error(built.failure.message)
            expect(built.success.baseUrl).toBe(`https://api.example.com${kept}`)
          }
        }
      ))
    ))

  it.effect("property: maxResponseSize and maxEventSize are whole numbers of bytes, at least 1", () =>
    Effect.promise(() =>
      fc.assert(fc.asyncProperty(
        fc.oneof(fc.integer({ min: -10, max: 1 << 30 }), fc.double(), fc.constant(Number.NaN)),
        fc.constantFrom("maxResponseSize", "maxEventSize"),
        async (size, option) => {
          const built = await Effect.runPromise(build({ apiKey: Redacted.make("k"), [option]: size }))
          if (Number.isSafeInteger(size) && size >= 1) expect(isSuccess(built)).toBe(true)
          else {
            expect(isFailure(built) && built.failure._tag).toBe("ValidationError")
            expect(isFailure(built) && built.failure.message).toContain(`${option}: ${size} is not a size`)
          }
        }
      ))
    ))

  for (const transport of ["fetch", "undici"] as const) {
    it.effect(`over ${transport}: the address serve prints for other SDKs (…/studio/v1) works as is`, () =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* referenceServer({ apiKeys: [canaryKey] })
        const completion = yield* Chat.create(chatRequest).pipe(
          Effect.provide(clientLayer(`${server.url}/studio/v1`, transport))
        )
        expect(completion.choices.length).toBe(1)
        expect(server.arrivals[0]!.path).toBe("/studio/v1/chat/completions")
      })))

    it.effect(`over ${transport}: a 404 for an unknown route names the URL and says to check baseUrl`, () =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* referenceServer({ apiKeys: [canaryKey] })
        const error = yield* Chat.create(chatRequest).pipe(
          Effect.provide(clientLayer(`${server.url}/api`, transport)),
          Effect.flip
        )
        expect(error._tag).toBe("NotFound")
        expect(error.message).toContain(`(POST ${server.url}/api/studio/v1/chat/completions)`)
        expect(error.message).toMatch(/Check baseUrl: .*$/)
        // an id the service does not hold is another answer: check the id
        const unknownRun = yield* Maestro.retrieve("run-x").pipe(
          Effect.provide(clientLayer(server.url, transport)),
          Effect.flip
        )
        expect(unknownRun.message).toContain(`(GET ${server.url}/studio/v1/maestro/runs/run-x)`)
        expect(unknownRun.message).toMatch(/Check the id/)
      })))
  }
})

describe("layerConfig", () => {
  const withConfig = (entries: ReadonlyArray<readonly [string, string]>) => configLayer(entries)

  it.effect("reads STUDIO_API_KEY and STUDIO_BASE_URL by default, or the Config values given", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* referenceServer({ apiKeys: [canaryKey] })
      const byDefault = StudioClient.layerConfig().pipe(
        Layer.provide(transports.undici),
        Layer.provide(withConfig([["STUDIO_API_KEY", canaryKey], ["STUDIO_BASE_URL", server.url]]))
      )
      expect((yield* Chat.create(chatRequest).pipe(Effect.provide(byDefault))).choices.length).toBe(1)
      const named = StudioClient.layerConfig({
        apiKey: redactedConfig("MY_STUDIO_KEY"),
        baseUrl: stringConfig("MY_STUDIO_URL"),
        maxRetries: 0
      }).pipe(
        Layer.provide(transports.fetch),
        Layer.provide(withConfig([["MY_STUDIO_KEY", canaryKey], ["MY_STUDIO_URL", server.url]]))
      )
      expect((yield* Chat.create(chatRequest).pipe(Effect.provide(named))).choices.length).toBe(1)
      expect(server.arrivals.length).toBe(2)
    })))

  it.effect("a missing or empty key gives the documented AuthError on every call, and sends nothing", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* referenceServer({ apiKeys: [canaryKey] })
      for (const entries of [[], [["STUDIO_API_KEY", ""]]] as const) {
        const layer = StudioClient.layerConfig().pipe(
          Layer.provide(transports.fetch),
          Layer.provide(withConfig([...entries, ["STUDIO_BASE_URL", server.url]]))
        )
        const error = yield* Chat.create(chatRequest).pipe(Effect.provide(Layer.orDie(layer)), Effect.flip)
        expect(error._tag).toBe("AuthError")
        expect(error.message).toBe(
          "No API key is configured (set STUDIO_API_KEY or pass apiKey). " +
            "Check the API key (STUDIO_API_KEY, or the apiKey option) and its permissions."
        )
      }
      expect(server.arrivals.length).toBe(0)
    })))
})

describe("messages", () => {
  const run = Schema.decodeUnknownSync(MaestroSchema.MaestroRun)({
    id: "run-1",
    status: "failed",
    error: { message: "tool refused" }
  })

  /** At least one instance of every error kind, in the shapes its message varies by. */
  const samples: ReadonlyArray<StudioError.StudioError> = [
    new StudioError.ValidationError({
      operation: "chat",
      source: "client",
      issues: [new StudioError.ValidationIssue({ path: "temperature", message: "at most 2. Use 0 to 2" })]
    }),
    new StudioError.ValidationError({ operation: "chat", source: "service", issues: [], status: 422, requestId: "r" }),
    new StudioError.AuthError({ status: 401, detail: "Forbidden: Bad or missing API token.", requestId: "r" }),
    new StudioError.AuthError({ detail: "No API key is configured." }),
    new StudioError.RateLimit({ detail: "Too many requests", retryAfter: Duration.seconds(10) }),
    new StudioError.RateLimit({ detail: "Too many requests." }),
    new StudioError.NotFound({ detail: "Not Found", method: "POST", url: "https://x/studio/v1/chat/completions" }),
    new StudioError.NotFound({ detail: "Run run-1 not found", requestId: "r" }),
    new StudioError.ApiError({ status: 500, body: "", detail: "Injected fault." }),
    new StudioError.ApiError({ status: 502, body: "" }),
    new StudioError.ApiError({ status: 418, body: "I'm a teapot", requestId: "r" }),
    new StudioError.ApiError({ status: 302, body: "", detail: "redirect to https://elsewhere" }),
    new StudioError.TransportError({ method: "POST", url: "http://127.0.0.1:9/x", reason: "ECONNREFUSED" }),
    new StudioError.TransportError({ method: "POST", url: "u", reason: "the event stream ended before [DONE]" }),
    new StudioError.TimeoutError({ phase: "attempt", timeout: Duration.minutes(2), method: "POST", url: "u" }),
    new StudioError.TimeoutError({ phase: "stream-idle", timeout: Duration.seconds(90), method: "POST", url: "u" }),
    new StudioError.DecodeError({ operation: "chat", reason: "the body is not JSON", requestId: "r" }),
    new StudioError.RunFailed({ run, reason: "tool refused" }),
    new StudioError.PollTimeout({ runId: "run-1" }),
    new StudioError.PollTimeout({ runId: "run-1", lastRun: run })
  ]

  /** The last sentence of a message: what to do next. */
  const nextStep = (message: string) => message.slice(message.lastIndexOf(". ") + 2)
  const advice = /^(Check|Fix|Retry|Wait|Set|The service had a problem: retry|The run goes on: keep polling)\b[^\n]*\.$/

  it("every error kind's message ends with what to do next", () => {
    const kinds = errorKinds
    expect(new Set(samples.map((error) => error._tag))).toEqual(new Set(kinds))
    for (const error of samples) {
      expect(nextStep(error.message), error.message).toMatch(advice)
      // the request id, when there is one, comes before the advice
      if ("requestId" in error && error.requestId !== undefined) {
        expect(error.message).toContain(`(request id ${error.requestId}). `)
      }
    }
  })

  it("durations print as people write them, and no message has an empty sentence", () => {
    expect(new StudioError.RateLimit({ detail: "slow", retryAfter: Duration.seconds(10) }).message).toContain(
      "Retry after 10s,"
    )
    const timeout = new StudioError.TimeoutError({
      phase: "attempt",
      timeout: Duration.minutes(2),
      method: "POST",
      url: "u"
    })
    expect(timeout.message).toBe(
      "POST u did not answer within 2m. Retry, or raise the timeout option for long answers."
    )
    for (const error of samples) expect(error.message).not.toMatch(/Duration\(|Millis\(|Nanos\(|\.\.|^\d+ \./)
  })
})
