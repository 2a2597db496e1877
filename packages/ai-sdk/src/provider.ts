/**
 * The Studio provider of the AI SDK: `createStudio(settings)` and the default `studio`, whose key comes from
 * `STUDIO_API_KEY` and address from `STUDIO_BASE_URL`, or their aliases `AI21_API_KEY` and `AI21_API_HOST`
 * where those are missing or empty (read at each call, as the other entries read them).
 */
import {
  type EmbeddingModelV4,
  type ImageModelV4,
  InvalidArgumentError,
  NoSuchModelError,
  type ProviderV4
} from "@ai-sdk/provider"
import { loadApiKey } from "@ai-sdk/provider-utils"
import { sizeIssues } from "studio-effect-core/bytes/sizeLimits"
import { defaultMaxEventSize } from "studio-effect-core/sse/SseParser"
import { resolveBaseUrl } from "studio-effect-core/url/baseUrl"
import { apiKeyVariables, baseUrlVariables, firstSet } from "studio-effect-core/wire/environment"
import { defaultMaxUploadSize, StudioFiles } from "./files.js"
import type { Connection } from "./http.js"
import { type StudioChatModelId, StudioLanguageModel } from "./languageModel.js"

/** The address of the Studio service when neither the settings nor `STUDIO_BASE_URL` give one. */
export const defaultBaseURL = "https://api.ai21.com"

/** The largest answer read whole, and the most bytes a stream carries, when no `maxResponseSize` is given. */
export const defaultMaxResponseSize = 32 * 1024 * 1024

export interface StudioProviderSettings {
  /**
   * The API key, sent as a bearer token; `STUDIO_API_KEY` from the environment when not given, or its alias
   * `AI21_API_KEY` when that is missing or empty.
   */
  readonly apiKey?: string
  /**
   * The service's address (`https://`, or `http://` to loopback such as `studio-effect serve`), with or
   * without `/studio/v1`; `STUDIO_BASE_URL` from the environment (or its alias `AI21_API_HOST`), then
   * `https://api.ai21.com`.
   */
  readonly baseURL?: string
  /** Headers sent with every request. */
  readonly headers?: Record<string, string>
  /** The `fetch` to send requests with (the global one by default). */
  readonly fetch?: typeof globalThis.fetch
  /** The largest answer read whole, and the most bytes one stream carries: 32 MiB by default. */
  readonly maxResponseSize?: number
  /** The largest event of a stream: 8 MiB by default. */
  readonly maxEventSize?: number
  /** The largest file `files().uploadFile` sends: 64 MiB by default. */
  readonly maxUploadSize?: number
}

export interface StudioProvider extends ProviderV4 {
  /** The chat model `modelId`, such as `studio("fpmodel-mini")`. */
  (modelId: StudioChatModelId): StudioLanguageModel
  languageModel(modelId: StudioChatModelId): StudioLanguageModel
  /** The library of files: upload, metadata, delete. */
  files(): StudioFiles
}

/** A setting from the environment; unset and empty are the same. */
/** The first of `names` set in the environment (a `STUDIO_` name, then its `AI21_` alias), if any. */
const environment = (names: ReadonlyArray<string>): string | undefined =>
  firstSet((globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {}, names)

/** The provider's name, as `LanguageModelV4.provider` gives it. */
const providerName = "studio.chat"

export const createStudio = (settings: StudioProviderSettings = {}): StudioProvider => {
  const sizes = sizeIssues({
    maxResponseSize: settings.maxResponseSize,
    maxEventSize: settings.maxEventSize,
    maxUploadSize: settings.maxUploadSize
  })
  if (sizes.length > 0) throw new InvalidArgumentError({ argument: sizes[0]!.path, message: sizes[0]!.message })
  const baseUrl = (): string => {
    const resolved = resolveBaseUrl(settings.baseURL ?? environment(baseUrlVariables) ?? defaultBaseURL, false)
    if (resolved._tag === "Problem") throw new InvalidArgumentError({ argument: "baseURL", message: resolved.problem })
    return resolved.url
  }
  const connection: Connection = {
    url: (path) => baseUrl() + path,
    headers: (callHeaders) => {
      const key = loadApiKey({
        apiKey: settings.apiKey === "" || settings.apiKey === undefined
          ? environment(apiKeyVariables)
          : settings.apiKey,
        environmentVariableName: "STUDIO_API_KEY",
        description: "Studio"
      })
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries({ ...settings.headers, ...callHeaders })) {
        if (value !== undefined) headers[name.toLowerCase()] = value
      }
      headers["authorization"] = `Bearer ${key}`
      return headers
    },
    fetch: settings.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    maxResponseSize: settings.maxResponseSize ?? defaultMaxResponseSize,
    maxEventSize: settings.maxEventSize ?? defaultMaxEventSize
  }
  const languageModel = (modelId: StudioChatModelId): StudioLanguageModel => {
    return new StudioLanguageModel(modelId, providerName, connection)
  }
  const files = new StudioFiles("studio.files", connection, settings.maxUploadSize ?? defaultMaxUploadSize)
  const noSuchModel = (modelId: string, modelType: "embeddingModel" | "imageModel"): never => {
    throw new NoSuchModelError({
      modelId,
      modelType,
      message: `the Studio service has no ${modelType === "imageModel" ? "image" : "embedding"} models (${modelId})`
    })
  }
  return Object.assign(languageModel, {
    specificationVersion: "v4" as const,
    languageModel,
    embeddingModel: (modelId: string): EmbeddingModelV4 => noSuchModel(modelId, "embeddingModel"),
    imageModel: (modelId: string): ImageModelV4 => noSuchModel(modelId, "imageModel"),
    files: () => files
  })
}

/** The default provider: the key from `STUDIO_API_KEY`, the address from `STUDIO_BASE_URL`. */
export const studio: StudioProvider = createStudio()
