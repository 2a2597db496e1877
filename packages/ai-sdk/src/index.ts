/**
 * The Studio models for the AI SDK (`ai` 7): `studio("fpmodel-mini")` with `generateText`, `streamText`,
 * tools, `generateObject` and documents, and the library as `studio.files()`.
 *
 * @since 1.0.0
 */
export type { StudioLanguageModelOptions } from "./chatRequest.js"
export { defaultMaxUploadSize, StudioFiles, type StudioUploadOptions } from "./files.js"
export { type StudioChatModelId, StudioLanguageModel } from "./languageModel.js"
export {
  createStudio,
  defaultBaseURL,
  defaultMaxResponseSize,
  studio,
  type StudioProvider,
  type StudioProviderSettings
} from "./provider.js"
