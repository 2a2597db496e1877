/**
 * The models of the reference service: the ones it lists (`GET /studio/v1/models`), and which identifiers
 * a run's `models` may name.
 */
import { hostedModelOf, hostedModels, type ModelInfo, runModels } from "../wire/models.js"

/** The family of the service's own hosted models: an identifier in it must be one the service has. */
const hostedFamily = "fpmodel-"

/**
 * Whether a run may name `model`: one of the interface's models (by either name, `serviceModelIds`) or of
 * `extraModels`, or any other
 * identifier outside the service's own `fpmodel-` family, taken as a third-party model configured in the
 * caller's account (the service then uses the caller's key for that provider). An unknown `fpmodel-` name
 * is a mistake for one of the service's own, and is refused.
 */
export const isRunModel = (model: string, extraModels: ReadonlyArray<string>): boolean =>
  (runModels as ReadonlyArray<string>).includes(model) || hostedModelOf(model) !== undefined ||
  extraModels.includes(model) ||
  (model.trim() !== "" && !model.toLowerCase().startsWith(hostedFamily))

/** The date the reference service gives its models as `updated`. */
const released = "2026-01-01T00:00:00Z"

/** What the reference service says of a model it hosts (or of one its options add). */
const infoOf = (id: string): ModelInfo => ({
  id,
  name: id,
  updated: released,
  context_length: 256_000,
  quantization: "FP8",
  max_completion_tokens: 4096,
  pricing: id === "fpmodel-large" ? { prompt: "0.000002", completion: "0.000008" } : {
    prompt: "0.0000002",
    completion: "0.0000004"
  }
})

/** The answer of `GET /studio/v1/models`: the hosted models, then those `extraModels` adds. */
export const modelList = (extraModels: ReadonlyArray<string>): { readonly data: ReadonlyArray<ModelInfo> } => ({
  data: [...new Set([...hostedModels, ...extraModels])].map(infoOf)
})

/**
 * Whether a chat may name `model`: a hosted model by either name (`fpmodel-mini` or the real service's
 * `jamba-mini`, see `serviceModelIds`), or one of `extraModels`.
 */
export const isChatModel = (model: string, extraModels: ReadonlyArray<string>): boolean =>
  hostedModelOf(model) !== undefined || extraModels.includes(model)
