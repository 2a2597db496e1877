/**
 * Model identifiers named by the interface, as typed constants for completion. Request fields accept any
 * string: a caller's own third-party model, or an identifier the service adds later, is passed through.
 *
 * @since 0.1.0
 */

/**
 * Chat models; the bare names resolve to the current version.
 *
 * @since 0.1.0
 * @category models
 */
export const chatModels = ["fpmodel-large", "fpmodel-mini"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type ChatModel = typeof chatModels[number]

/**
 * Models hosted by the service, usable in a run's `models`.
 *
 * @since 0.1.0
 * @category models
 */
export const hostedModels = ["fpmodel-large", "fpmodel-mini"] as const

/**
 * Third-party models managed by the service (no caller key required), usable in a run's `models`.
 *
 * @since 0.1.0
 * @category models
 */
export const managedThirdPartyModels = [
  "vendora-3-5-haiku",
  "vendora-4-sonnet",
  "vendorb-2.5-flash",
  "vendorb-2.5-flash-lite",
  "vendorc-4.1",
  "vendorc-4.1-mini",
  "vendord-33-70b-instruct",
  "vendore-7b",
  "vendore-8x7b",
  "vendore-small",
  "vendore-small-24B",
  "vendorf-qwq-32b",
  "vendorf3-235b-a22b-instruct-2507"
] as const

/**
 * Every model identifier the interface lists for runs.
 *
 * @since 0.1.0
 * @category models
 */
export const runModels = [...hostedModels, ...managedThirdPartyModels] as const

/**
 * The real service's identifiers of its hosted models, each with the interface's name it stands for: the
 * bare names (`jamba-large`, `jamba-mini`) select the current version, the others a version (and its
 * date). Both names select the same model.
 *
 * @since 1.1.0
 * @category models
 */
export const serviceModelIds = {
  "jamba-large": "fpmodel-large",
  "jamba-large-1.7": "fpmodel-large",
  "jamba-large-1.7-2025-07": "fpmodel-large",
  "jamba-mini": "fpmodel-mini",
  "jamba-mini-2": "fpmodel-mini",
  "jamba-mini-2-2026-01": "fpmodel-mini"
} as const satisfies Record<string, ChatModel>

/**
 * @since 1.1.0
 * @category models
 */
export type ServiceModelId = keyof typeof serviceModelIds

/**
 * The interface's name of a hosted model named either way (`jamba-mini` or `fpmodel-mini` is
 * `fpmodel-mini`), or `undefined` for any other identifier.
 *
 * @since 1.1.0
 * @category models
 */
export const hostedModelOf = (model: string): ChatModel | undefined => {
  for (const name of chatModels) if (name === model) return name
  for (const [id, name] of Object.entries(serviceModelIds)) if (id === model) return name
  return undefined
}

/**
 * A run model: one of the listed identifiers, or any other string (a caller's own third-party model).
 *
 * @since 0.1.0
 * @category models
 */
export type RunModel = typeof runModels[number] | (string & {})

// ---------------------------------------------------------------------------------------------------------
// the models the service lists
// ---------------------------------------------------------------------------------------------------------

/**
 * How the weights of a listed model are quantized, as the service names it.
 *
 * @since 0.1.0
 * @category tables
 */
export const modelQuantizations = ["FP8", "experts_int8"] as const

/**
 * A quantization: one of `modelQuantizations`, or a newer one.
 *
 * @since 0.1.0
 * @category models
 */
export type ModelQuantization = typeof modelQuantizations[number] | (string & {})

/**
 * What a model costs, as decimal strings (per token, in the account's currency).
 *
 * @since 0.1.0
 * @category models
 */
export interface ModelPricing {
  readonly prompt: string
  readonly completion: string
  readonly [key: string]: unknown
}

/**
 * A model the service offers (`GET /studio/v1/models`); `updated` is a date.
 *
 * @since 0.1.0
 * @category models
 */
export interface ModelInfo {
  readonly id: string
  readonly name: string
  readonly updated: string
  readonly context_length: number
  readonly quantization: ModelQuantization
  readonly max_completion_tokens: number
  readonly pricing: ModelPricing
  readonly [key: string]: unknown
}

/**
 * The answer of listing models.
 *
 * @since 0.1.0
 * @category models
 */
export interface ModelList {
  readonly data: ReadonlyArray<ModelInfo>
  readonly [key: string]: unknown
}
