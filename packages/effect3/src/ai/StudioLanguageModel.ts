/**
 * The Studio chat models as an `@effect/ai` `LanguageModel`: a program written against `LanguageModel`
 * (`generateText`, `streamText`, `generateObject`, toolkits) runs on the Studio service, or on the reference
 * service in tests, by providing `StudioLanguageModel.model(...)` and a `StudioClient`.
 *
 * @since 0.1.0
 */
import * as AiError from "@effect/ai/AiError"
import * as LanguageModel from "@effect/ai/LanguageModel"
import * as AiModel from "@effect/ai/Model"
import type * as Response from "@effect/ai/Response"
import * as Telemetry from "@effect/ai/Telemetry"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Tracer from "effect/Tracer"
import type { Simplify } from "effect/Types"
import { completionAttributes, requestAttributes } from "studio-effect-core/ai/telemetry"
import { type FinishChoice as CoreFinishChoice, finishChoicesOf } from "studio-effect-core/chat/finishChoices"
import { canStream } from "studio-effect-core/wire/chat"
import type { ChatModel } from "studio-effect-core/wire/models"
import * as Chat from "../Chat.js"
import type { ChatCompletion, ChatRequest } from "../ChatSchema.js"
import { StudioClient } from "../StudioClient.js"
import { StudioError } from "../StudioError.js"
import { fromStudioError } from "./internal/aiError.js"
import { chatMessages, chatTools, objectInstruction } from "./internal/messages.js"
import { chunkParts, completionParts, completionStreamParts, objectNotConforming } from "./internal/parts.js"

/**
 * A chat model id: the interface's models are offered for completion, any other id is passed through.
 *
 * @since 0.1.0
 * @category models
 */
export type Model = ChatModel | (string & {})

// =============================================================================
// Configuration
// =============================================================================

/**
 * The chat parameters of the requests a model makes. Given to `model` or `layer`, and overridden for part
 * of a program with `withConfigOverride`.
 *
 * @since 0.1.0
 * @category configuration
 */
export class Config extends Context.Tag("studio-effect/ai/StudioLanguageModel/Config")<Config, Config.Service>() {
  /**
   * The overrides in the current context, if any.
   *
   * @since 0.1.0
   */
  static readonly getOrUndefined: Effect.Effect<Config.Service | undefined> = Effect.map(
    Effect.serviceOption(Config),
    Option.getOrUndefined
  )
}

/**
 * @since 0.1.0
 * @category configuration
 */
export declare namespace Config {
  /**
   * The chat request fields a model sets on every request (the wire names: `top_p`, `max_tokens`, ...).
   * `response_format` applies to `generateText` and `streamText`; `generateObject` always asks for JSON.
   *
   * @since 0.1.0
   * @category configuration
   */
  export interface Service extends
    Simplify<
      Partial<
        Pick<
          ChatRequest,
          "model" | "temperature" | "top_p" | "max_tokens" | "stop" | "n" | "documents" | "response_format"
        >
      >
    >
  {}
}

// =============================================================================
// Provider metadata
// =============================================================================

/**
 * One choice of a completion, as a finish part carries it when `n` is above 1.
 *
 * @since 1.0.0
 * @category provider metadata
 */
export type FinishChoice = CoreFinishChoice

/**
 * Every choice of the completion that a finish part ends, when `n` is above 1 (the first, which became the
 * response's parts, included, so none is lost); none otherwise. The part's metadata holds them as JSON
 * (`metadata.studio.choices`); they are read here rather than typed by augmenting `FinishPartMetadata`,
 * whose JSON index signature an optional property breaks for projects without `exactOptionalPropertyTypes`.
 *
 * @since 1.0.0
 * @category provider metadata
 */
export const finishChoices = (part: { readonly metadata: unknown }): ReadonlyArray<FinishChoice> =>
  finishChoicesOf(part.metadata)

// =============================================================================
// Constructors
// =============================================================================

/**
 * A Studio chat model as an `AiModel` of `LanguageModel`, to provide to a `LanguageModel` program; it
 * needs a `StudioClient` (`StudioClient.layerConfig()`, or `Reference.layerClient()` in tests).
 *
 * @since 0.1.0
 * @category models
 */
export const model = (
  model: Model,
  config?: Omit<Config.Service, "model">
): AiModel.Model<"studio", LanguageModel.LanguageModel, StudioClient> =>
  AiModel.make("studio", layer({ model, config }))

/**
 * Makes the `LanguageModel` service over the `StudioClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.fnUntraced(function*(options: {
  readonly model: Model
  readonly config?: Omit<Config.Service, "model"> | undefined
}) {
  const client = yield* StudioClient
  /** A text from the service as a span may carry it: checked against the key and the request's secrets. */
  const checked = (request: ChatRequest) => (text: string): string => client.redactAttributes({ text }, request).text

  const chatRequest = (
    providerOptions: LanguageModel.ProviderOptions
  ): Effect.Effect<ChatRequest, AiError.MalformedInput> =>
    Effect.gen(function*() {
      const overrides = yield* Config.getOrUndefined
      const { model, ...parameters } = { model: options.model, ...options.config, ...overrides }
      const messages = yield* chatMessages(providerOptions.prompt)
      const tools = yield* chatTools(providerOptions)
      const format = providerOptions.responseFormat
      return {
        ...parameters,
        model,
        messages: format.type === "json" ? [objectInstruction(format), ...messages] : messages,
        ...(tools === undefined ? {} : { tools }),
        ...(format.type === "json" ? { response_format: { type: "json_object" as const } } : {})
      }
    })

  /** The one non-streamed call of a request, a child of the `LanguageModel` span. */
  const complete = (request: ChatRequest, method: string, span: Tracer.Span) =>
    Chat.create(request).pipe(
      Effect.provideService(StudioClient, client),
      Effect.provideService(Tracer.ParentSpan, span),
      Effect.mapError(fromStudioError(method)),
      Effect.tap((completion) => Effect.sync(() => annotateCompletion(span, completion, checked(request))))
    )

  return yield* LanguageModel.make({
    generateText: (providerOptions) =>
      Effect.gen(function*() {
        const request = yield* chatRequest(providerOptions)
        annotateRequest(providerOptions.span, request)
        const completion = yield* complete(request, "generateText", providerOptions.span)
        const format = providerOptions.responseFormat
        if (format.type === "json") yield* checkObject(completion, format.schema)
        return yield* completionParts(completion, request.model, "generateText")
      }),
    streamText: (providerOptions) =>
      Stream.unwrap(Effect.gen(function*() {
        const request = yield* chatRequest(providerOptions)
        annotateRequest(providerOptions.span, request)
        if (!canStream(request)) {
          // the service streams neither tool calls nor several choices: it allows one call, given as a stream
          const completion = yield* complete(request, "streamText", providerOptions.span)
          // one part at a time, as a streamed completion gives them: the tool results come before the finish
          return Stream.rechunk(Stream.fromIterable(yield* completionStreamParts(completion, request.model)), 1)
        }
        return chunkParts(Chat.stream(request), request.model).pipe(
          Stream.provideService(StudioClient, client),
          // the SDK's span of the stream is a child of LanguageModel's, as for generateText
          Stream.provideService(Tracer.ParentSpan, providerOptions.span),
          Stream.mapError(fromStudioError("streamText")),
          Stream.tap((part) => Effect.sync(() => annotateStreamPart(providerOptions.span, part, checked(request))))
        )
      }))
  })
})

/**
 * The `LanguageModel` service of a Studio chat model, over the `StudioClient` in context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: {
  readonly model: Model
  readonly config?: Omit<Config.Service, "model"> | undefined
}): Layer.Layer<LanguageModel.LanguageModel, never, StudioClient> =>
  Layer.effect(LanguageModel.LanguageModel, make(options))

/**
 * Runs an effect with chat parameters that take precedence over the model's own (and over outer overrides).
 *
 * @since 0.1.0
 * @category configuration
 */
export const withConfigOverride: {
  (overrides: Config.Service): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, overrides: Config.Service): Effect.Effect<A, E, R>
} = dual(
  2,
  <A, E, R>(self: Effect.Effect<A, E, R>, overrides: Config.Service): Effect.Effect<A, E, R> =>
    Effect.flatMap(Config.getOrUndefined, (config) => Effect.provideService(self, Config, { ...config, ...overrides }))
)

// =============================================================================
// Errors
// =============================================================================

/**
 * The SDK error an `AiError` of this provider was made from: every `StudioError` surfaces as an `AiError`
 * (a rule broken before sending as `MalformedInput`, no answer as `HttpRequestError`, an undecodable answer
 * as `MalformedOutput`, an error status as `UnknownError`) with the original as its `cause`.
 *
 * @since 0.1.0
 * @category errors
 */
export const studioError = (error: AiError.AiError): Option.Option<StudioError> => {
  const cause = "cause" in error ? error.cause : undefined
  return isStudioError(cause) ? Option.some(cause) : Option.none()
}

const isStudioError = Schema.is(StudioError)

// =============================================================================
// Internals
// =============================================================================

/**
 * The text of a structured answer decoded by the schema `generateObject` was given. `LanguageModel` decodes
 * it again and would report a failure without the text; this reports it with the text the model wrote.
 */
const checkObject = (completion: ChatCompletion, schema: Schema.Schema.Any) => {
  const text = completion.choices[0]?.message.content
  if (text === null || text === undefined || text === "") return Effect.void
  // `generateObject` requires the schema's context, and this runs inside it.
  const decode = Schema.decodeUnknown(Schema.parseJson(schema as Schema.Schema<unknown, unknown, never>))
  return Effect.mapError(decode(text), (cause) => objectNotConforming(text, cause))
}

const annotateRequest = (span: Tracer.Span, request: ChatRequest): void =>
  Telemetry.addGenAIAnnotations(span, {
    system: "studio",
    operation: { name: "chat" },
    request: requestAttributes(request)
  })

const annotateCompletion = (span: Tracer.Span, completion: ChatCompletion, checked: (text: string) => string): void =>
  Telemetry.addGenAIAnnotations(span, completionAttributes(completion, checked))

const annotateStreamPart = (
  span: Tracer.Span,
  part: Response.StreamPartEncoded,
  checked: (text: string) => string
): void => {
  if (part.type === "response-metadata") {
    Telemetry.addGenAIAnnotations(span, { response: { id: part.id === undefined ? undefined : checked(part.id) } })
  } else if (part.type === "finish") {
    Telemetry.addGenAIAnnotations(span, {
      response: { finishReasons: [part.reason] },
      usage: { inputTokens: part.usage.inputTokens, outputTokens: part.usage.outputTokens }
    })
  }
}
