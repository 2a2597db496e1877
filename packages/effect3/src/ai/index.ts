/**
 * studio-effect/ai: the Studio chat models as an `@effect/ai` provider. Loads `@effect/ai` (an optional peer
 * dependency); `studio-effect` itself never does.
 *
 * @since 0.1.0
 */

/**
 * @since 0.1.0
 */
export * as StudioLanguageModel from "./StudioLanguageModel.js"
