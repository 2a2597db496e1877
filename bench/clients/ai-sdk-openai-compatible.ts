/**
 * `@ai-sdk/openai-compatible` 3.0.92 (the AI SDK's generic provider, `LanguageModelV4`) pointed at the same
 * server (base URL `.../studio/v1`), through the same `ai` 7 functions as `ai-sdk.ts` (`aiSdkFunctions.ts`):
 * the peer of the Studio provider within the AI SDK.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import { apiKey, chatRequest } from "../fixtures.js"
import { aiSdkClient } from "./aiSdkFunctions.js"
import type { BenchClient } from "./BenchClient.js"

export const client: BenchClient = aiSdkClient((origin) =>
  createOpenAICompatible({ name: "studio", apiKey, baseURL: origin + "/studio/v1" }).chatModel(chatRequest.model)
)
