/**
 * studio-effect/ai: the Studio chat models as a provider of `effect/ai`'s `LanguageModel`. Only this entry
 * point loads `effect/ai`; `studio-effect` itself never does.
 *
 * @since 0.1.0
 */

/**
 * @since 0.1.0
 */
export * as StudioLanguageModel from "./StudioLanguageModel.js"
