/**
 * Schemas of the models the service offers (`GET /studio/v1/models`). Field names are the wire names;
 * fields the schemas do not name are kept as the service sent them.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { modelQuantizations } from "studio-effect-core/wire/models"
import { openStruct } from "./internal/schema/open.js"

/**
 * How a model's weights are quantized: `FP8`, `experts_int8`, or a newer one.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ModelQuantization = Schema.Union(Schema.Literal(...modelQuantizations), Schema.String)

/**
 * What a model costs, as decimal strings.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ModelPricing = openStruct({
  prompt: Schema.String,
  completion: Schema.String
})

/**
 * @since 0.1.0
 * @category models
 */
export interface ModelPricing extends Schema.Schema.Type<typeof ModelPricing> {}

/**
 * A model the service offers; `updated` is a date.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ModelInfo = openStruct({
  id: Schema.String,
  name: Schema.String,
  updated: Schema.String,
  context_length: Schema.Number,
  quantization: ModelQuantization,
  max_completion_tokens: Schema.Number,
  pricing: ModelPricing
}).annotations({ identifier: "ModelInfo" })

/**
 * @since 0.1.0
 * @category models
 */
export interface ModelInfo extends Schema.Schema.Type<typeof ModelInfo> {}

/**
 * The answer of listing models.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ModelList = openStruct({
  data: Schema.Array(ModelInfo)
}).annotations({ identifier: "ModelList" })

/**
 * @since 0.1.0
 * @category models
 */
export interface ModelList extends Schema.Schema.Type<typeof ModelList> {}
