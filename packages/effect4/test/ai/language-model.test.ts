/**
 * The AI errors of `StudioLanguageModel` as this line's `effect/ai` shapes them: each refusal and each SDK error
 * as the `AiError` it becomes, holding the SDK error it came from. What both lines share is tested once in
 * the conformance suite (`packages/conformance/test/ai/language-model.test.ts`).
 */
import { describe, expect, it } from "@effect/vitest"
import * as AiError from "effect/ai/AiError"
import * as LanguageModel from "effect/ai/LanguageModel"
import * as Prompt from "effect/ai/Prompt"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import { City, question, recording, studio, Weather, weatherHandled } from "../../../conformance/test/ai/support.js"
import { StudioLanguageModel } from "../../src/ai/index.js"
import * as Reference from "../../src/reference/index.js"
import * as StudioClient from "../../src/StudioClient.js"

describe("StudioLanguageModel.generateText", () => {
  it.effect("a prompt the service would refuse fails with InvalidUserInputError holding Chat.create's ValidationError", () =>
    Effect.gen(function*() {
      const error = yield* LanguageModel.generateText({
        prompt: Prompt.make([
          { role: "user", content: "hello" },
          {
            role: "tool",
            content: [{
              type: "tool-result",
              id: "call_x",
              name: "lookup",
              isFailure: false,
              result: 1,
              providerExecuted: false
            }]
          }
        ])
      }).pipe(Effect.flip)
      expect(error.reason._tag).toBe("InvalidUserInputError")
      const original = StudioLanguageModel.studioError(error)
      expect(Option.isSome(original)).toBe(true)
      const cause = Option.getOrThrow(original)
      expect(cause._tag).toBe("ValidationError")
      if (cause._tag !== "ValidationError") return
      expect(cause.source).toBe("client")
      expect(cause.issues.map((issue) => issue.path)).toEqual(["messages[1].tool_call_id"])
      expect(error.message).toMatch(/no earlier assistant message has a tool call with id "call_x"/)
    }).pipe(Effect.provide(studio())))

  it.effect("a file part, which a chat message cannot carry, is refused before anything is sent", () => {
    const { model, requests } = recording()
    return Effect.gen(function*() {
      const error = yield* LanguageModel.generateText({
        prompt: Prompt.make([{
          role: "user",
          content: [{ type: "file", mediaType: "image/png", data: new Uint8Array([1, 2, 3]) }]
        }])
      }).pipe(Effect.flip)
      expect(error.reason._tag).toBe("InvalidUserInputError")
      expect(error.message).toMatch(/text only: a file part \(image\/png\)/)
      expect(requests).toHaveLength(0)
    }).pipe(Effect.provide(studio({ model })))
  })
})

describe("StudioLanguageModel.streamText", () => {
  it.effect("with a toolkit, a failure of the one call is the same AiError as generateText's", () =>
    Effect.gen(function*() {
      const error = yield* LanguageModel.streamText({ prompt: question, toolkit: Weather }).pipe(
        Stream.runDrain,
        Effect.flip
      )
      expect(error.reason._tag).toBe("RateLimitError")
      expect(error.method).toBe("streamText")
      expect(error.retryAfter).toEqual(Duration.seconds(3))
      expect(Option.map(StudioLanguageModel.studioError(error), (cause) => cause._tag)).toEqual(
        Option.some("RateLimit")
      )
    }).pipe(
      Effect.provide(weatherHandled([])),
      Effect.provide(studio({ faults: [Reference.Fault.status(429, { headers: { "retry-after": "3" } })] }))
    ))
})

describe("StudioLanguageModel.generateObject", () => {
  it.effect("an answer that does not fit the schema is StructuredOutputError with the text the model wrote", () =>
    Effect.gen(function*() {
      const error = yield* LanguageModel.generateObject({ prompt: "Describe Lisbon", schema: City }).pipe(Effect.flip)
      expect(error.reason._tag).toBe("StructuredOutputError")
      if (error.reason._tag !== "StructuredOutputError") return
      expect(error.reason.responseText).toBe("{\"name\":\"Lisbon\",\"country\":\"Portugal\"}")
      expect(error.reason.description).toMatch(/population/)
    }).pipe(Effect.provide(studio({ model: ["{\"name\":\"Lisbon\",\"country\":\"Portugal\"}"] }))))

  it.effect("an answer that is not JSON at all is StructuredOutputError with the text too", () =>
    Effect.gen(function*() {
      const error = yield* LanguageModel.generateObject({ prompt: "Describe Lisbon", schema: City }).pipe(Effect.flip)
      expect(error.reason._tag).toBe("StructuredOutputError")
      expect(error.reason._tag === "StructuredOutputError" && error.reason.responseText).toBe(
        "Lisbon is a large coastal city"
      )
    }).pipe(Effect.provide(studio({ model: ["Lisbon is a large coastal city"] }))))
})

describe("StudioLanguageModel with a toolkit", () => {
  it.effect("a tool call whose arguments break the tool's schema is ToolParameterValidationError and no handler runs", () => {
    const calls: Array<unknown> = []
    return Effect.gen(function*() {
      const error = yield* LanguageModel.generateText({ prompt: question, toolkit: Weather }).pipe(Effect.flip)
      expect(error.reason._tag).toBe("ToolParameterValidationError")
      expect(error.reason._tag === "ToolParameterValidationError" && error.reason.toolName).toBe("get_weather")
      expect(calls).toHaveLength(0)
    }).pipe(
      Effect.provide(weatherHandled(calls)),
      Effect.provide(studio({
        model: [{ toolCalls: [{ name: "get_weather", arguments: { city: "Paris", unit: "kelvin" } }] }]
      }))
    )
  })

  it.effect("tool call arguments that are not JSON are InvalidOutputError quoting them", () =>
    Effect.gen(function*() {
      const error = yield* LanguageModel.generateText({ prompt: question, toolkit: Weather }).pipe(Effect.flip)
      expect(error.reason._tag).toBe("InvalidOutputError")
      expect(error.message).toContain("are not JSON: {city: Paris")
    }).pipe(
      Effect.provide(weatherHandled([])),
      Effect.provide(studio({ model: [{ toolCalls: [{ name: "get_weather", arguments: "{city: Paris" }] }] }))
    ))

  it.effect("a tool choice that forces a call is refused with InvalidUserInputError, not weakened, and nothing is sent", () => {
    const { model, requests } = recording()
    return Effect.gen(function*() {
      for (
        const toolChoice of ["required", { tool: "get_weather" }, { mode: "required", oneOf: ["get_weather"] }] as const
      ) {
        const error = yield* LanguageModel.generateText({ prompt: question, toolkit: Weather, toolChoice }).pipe(
          Effect.flip
        )
        expect(error.reason._tag).toBe("InvalidUserInputError")
        expect(error.message).toMatch(/cannot force a tool call/)
      }
      expect(requests).toHaveLength(0)
    }).pipe(Effect.provide(weatherHandled([])), Effect.provide(studio({ model })))
  })

  it.effect("a tool without a description, which the service requires, is refused with a hint", () => {
    const Bare = Toolkit.make(Tool.make("ping"))
    return Effect.gen(function*() {
      const error = yield* LanguageModel.generateText({ prompt: "ping", toolkit: Bare }).pipe(Effect.flip)
      expect(error.reason._tag).toBe("InvalidUserInputError")
      expect(error.message).toMatch(/"ping" has no description/)
    }).pipe(Effect.provide(Bare.toLayer({ ping: () => Effect.void })), Effect.provide(studio()))
  })
})

describe("StudioLanguageModel errors", () => {
  it.effect("a refused key is AuthenticationError holding the AuthError, and nothing shows the key", () => {
    const key = "sk-very-secret-key-1234"
    return Effect.gen(function*() {
      const error = yield* LanguageModel.generateText({ prompt: "hello" }).pipe(Effect.flip)
      expect(error.reason._tag === "AuthenticationError" && error.reason.kind).toBe("InvalidKey")
      expect(error.message).toMatch(/^StudioLanguageModel\.generateText: InvalidKey: .*\. 401 /)
      expect(Option.map(StudioLanguageModel.studioError(error), (cause) => cause._tag)).toEqual(
        Option.some("AuthError")
      )
      for (const shown of [error.message, String(error), JSON.stringify(error), JSON.stringify(error.reason.cause)]) {
        expect(shown).not.toContain(key)
      }
    }).pipe(
      Effect.provide(Layer.provide(
        StudioLanguageModel.model("fpmodel-mini"),
        Reference.layerClient({ apiKeys: ["the-right-key"], client: { apiKey: Redacted.make(key), maxRetries: 0 } })
      ))
    )
  })

  it.effect("a 429 is RateLimitError with the delay the service asked for, holding the RateLimit", () =>
    Effect.gen(function*() {
      const error = yield* LanguageModel.generateText({ prompt: "hello" }).pipe(Effect.flip)
      expect(error.reason._tag).toBe("RateLimitError")
      expect(error.isRetryable).toBe(true)
      expect(error.retryAfter).toEqual(Duration.seconds(3))
      const cause = Option.getOrThrow(StudioLanguageModel.studioError(error))
      expect(cause._tag).toBe("RateLimit")
      expect(cause._tag === "RateLimit" && cause.retryAfter !== undefined).toBe(true)
    }).pipe(Effect.provide(studio({ faults: [Reference.Fault.status(429, { headers: { "retry-after": "3" } })] }))))

  it.effect("a dropped connection is NetworkError (TransportError) holding the TransportError", () =>
    Effect.gen(function*() {
      const error = yield* LanguageModel.generateText({ prompt: "hello" }).pipe(Effect.flip)
      expect(error.reason._tag).toBe("NetworkError")
      if (error.reason._tag !== "NetworkError") return
      expect(error.reason.reason).toBe("TransportError")
      expect(error.reason.method).toBe("POST")
      expect(error.reason.url).toMatch(/\/studio\/v1\/chat\/completions$/)
      expect(error.isRetryable).toBe(true)
      expect(Option.map(StudioLanguageModel.studioError(error), (cause) => cause._tag)).toEqual(
        Option.some("TransportError")
      )
    }).pipe(Effect.provide(studio({ faults: [Reference.Fault.drop] }))))

  it.effect("a 422 of the service is InvalidRequestError holding the service's ValidationError", () =>
    Effect.gen(function*() {
      const error = yield* LanguageModel.generateText({ prompt: "hello" }).pipe(Effect.flip)
      expect(error.reason._tag).toBe("InvalidRequestError")
      expect(error.message).toContain("no such model today")
      const cause = Option.getOrThrow(StudioLanguageModel.studioError(error))
      expect(cause._tag === "ValidationError" && cause.source).toBe("service")
    }).pipe(Effect.provide(studio({ faults: [Reference.Fault.status(422, { detail: "no such model today" })] }))))

  it.effect("an attempt that outlives its timeout is NetworkError holding the TimeoutError", () =>
    Effect.gen(function*() {
      const fiber = yield* LanguageModel.generateText({ prompt: "hello" }).pipe(Effect.flip, Effect.forkChild)
      yield* TestClock.adjust("2 seconds")
      const error = yield* Fiber.join(fiber)
      expect(error.reason._tag).toBe("NetworkError")
      expect(Option.map(StudioLanguageModel.studioError(error), (cause) => cause._tag)).toEqual(
        Option.some("TimeoutError")
      )
    }).pipe(
      Effect.provide(Layer.provide(
        StudioLanguageModel.model("fpmodel-mini"),
        Reference.layerClient({
          faults: [Reference.Fault.delay("1 minute")],
          client: { maxRetries: 0, timeout: "1 second" }
        })
      ))
    ))

  it.effect("a 200 whose body is not a completion is InvalidResponseError holding the DecodeError", () =>
    Effect.gen(function*() {
      const error = yield* LanguageModel.generateText({ prompt: "hello" }).pipe(Effect.flip)
      expect(error.reason._tag).toBe("InvalidResponseError")
      expect(Option.map(StudioLanguageModel.studioError(error), (cause) => cause._tag)).toEqual(
        Option.some("DecodeError")
      )
    }).pipe(
      Effect.provide(Layer.provide(
        StudioLanguageModel.model("fpmodel-mini"),
        StudioClient.layer({ apiKey: Redacted.make("key"), baseUrl: "http://127.0.0.1:1", maxRetries: 0 }).pipe(
          Layer.orDie,
          Layer.provide(Layer.succeed(
            HttpClient.HttpClient,
            HttpClient.make((request) =>
              Effect.succeed(HttpClientResponse.fromWeb(
                request,
                new Response("{\"id\": 7}", { status: 200, headers: { "content-type": "application/json" } })
              ))
            )
          ))
        )
      ))
    ))

  it.effect("a stream cut short fails the stream with NetworkError holding the TransportError", () =>
    Effect.gen(function*() {
      const error = yield* LanguageModel.streamText({ prompt: "Tell me about the tides" }).pipe(
        Stream.runDrain,
        Effect.flip
      )
      expect(error.reason._tag).toBe("NetworkError")
      expect(Option.map(StudioLanguageModel.studioError(error), (cause) => cause._tag)).toEqual(
        Option.some("TransportError")
      )
    }).pipe(Effect.provide(studio({ faults: [Reference.Fault.dropMidStream(3)] }))))
})

describe("StudioLanguageModel.studioError", () => {
  it("is none for an AiError that no SDK error caused", () => {
    const reason = new AiError.UnknownError({ description: "boom" })
    const error = AiError.make({ module: "Elsewhere", method: "call", reason })
    expect(StudioLanguageModel.studioError(error)).toEqual(Option.none())
  })
})
