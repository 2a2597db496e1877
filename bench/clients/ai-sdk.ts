/**
 * `studio-effect-ai-sdk` through `ai` 7's own functions (`aiSdkFunctions.ts`).
 */
import { createStudio } from "studio-effect-ai-sdk"
import { apiKey, chatRequest } from "../fixtures.js"
import { aiSdkClient } from "./aiSdkFunctions.js"
import type { BenchClient } from "./BenchClient.js"

export const client: BenchClient = aiSdkClient((origin) =>
  // the provider bounds a whole stream by maxResponseSize (32 MiB by default); the long streams are larger
  createStudio({ apiKey, baseURL: origin, maxResponseSize: 256 * 1024 * 1024 })(chatRequest.model)
)
