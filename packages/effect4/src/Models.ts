/**
 * Models: `list` the models the service offers, and the identifiers the interface names, as typed
 * constants for completion (request fields accept any string).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import { endpoints } from "studio-effect-core/wire/endpoints"
import * as Operation from "./internal/operation/operation.js"
import { ModelList } from "./ModelSchema.js"
import type { StudioClient, WithResponse } from "./StudioClient.js"
import type { RequestError } from "./StudioError.js"

export {
  /**
   * @since 0.1.0
   * @category models
   */
  type ChatModel,
  /**
   * Chat models; the bare names resolve to the current version.
   *
   * @since 0.1.0
   * @category models
   */
  chatModels,
  /**
   * The interface's name of a hosted model named either way, or `undefined`.
   *
   * @since 1.1.0
   * @category models
   */
  hostedModelOf,
  /**
   * Models hosted by the service, usable in a run's `models`.
   *
   * @since 0.1.0
   * @category models
   */
  hostedModels,
  /**
   * Third-party models managed by the service (no caller key required), usable in a run's `models`.
   *
   * @since 0.1.0
   * @category models
   */
  managedThirdPartyModels,
  /**
   * A run model: one of the listed identifiers, or any other string (a caller's own third-party model).
   *
   * @since 0.1.0
   * @category models
   */
  type RunModel,
  /**
   * Every model identifier the interface lists for runs.
   *
   * @since 0.1.0
   * @category models
   */
  runModels,
  /**
   * One of the real service's model ids.
   *
   * @since 1.1.0
   * @category models
   */
  type ServiceModelId,
  /**
   * The real service's ids of its hosted models, each with the interface's name it stands for
   * (`jamba-mini` is `fpmodel-mini`); the reference service answers to both.
   *
   * @since 1.1.0
   * @category models
   */
  serviceModelIds
} from "studio-effect-core/wire/models"

const listOperation = Operation.json({
  endpoint: endpoints.modelsList,
  check: (_operation: string, _input: void) => Effect.void,
  response: ModelList
})

/**
 * Lists the models the service offers, with their context length, quantization and pricing.
 *
 * @since 0.1.0
 * @category operations
 */
export const list = (): Effect.Effect<ModelList, RequestError, StudioClient> => listOperation()

/**
 * `list`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const listWithResponse = (): Effect.Effect<WithResponse<ModelList>, RequestError, StudioClient> =>
  listOperation.withResponse()
