/**
 * Schemas of the Batch API (`/studio/v1/batches`): a batch as the service shows it, a page of batches, the
 * options of a create, of a page and of reading results, and one line of a batch's results. Field names are
 * the wire names.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { batchEndpoints, batchFileTypes, batchPageLimits, batchStatuses } from "studio-effect-core/wire/batches"
import { optional } from "./internal/schema/optional.js"

/**
 * The status of a batch: `PENDING` until it runs, `PROCESSING`, then `COMPLETED` (or `FAILED`,
 * `CANCELLED`, `EXPIRED`); the real service also names `STALE`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BatchStatus = Schema.Literals(batchStatuses)

/**
 * @since 0.1.0
 * @category models
 */
export type BatchStatus = typeof BatchStatus.Type

/**
 * The endpoint a batch runs: chat completions.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BatchEndpoint = Schema.Literals(batchEndpoints)

/**
 * @since 0.1.0
 * @category models
 */
export type BatchEndpoint = typeof BatchEndpoint.Type

/**
 * How many requests of a batch there are, and how many have succeeded or failed so far.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RequestCounts = Schema.Struct({
  total: Schema.Number,
  completed: Schema.Number,
  failed: Schema.Number
})

/**
 * @since 0.1.0
 * @category models
 */
export type RequestCounts = typeof RequestCounts.Type

/**
 * A batch, as `create`, `retrieve`, `list` and `cancel` return it. `status` is kept as the service sends it
 * (see `BatchStatus` for the values it takes); times are Unix seconds.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Batch = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  endpoint: Schema.String,
  created_at: Schema.Number,
  completed_at: Schema.optional(Schema.NullOr(Schema.Number)),
  cancelled_at: Schema.optional(Schema.NullOr(Schema.Number)),
  request_counts: RequestCounts,
  metadata: Schema.optional(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown))),
  /** Where the answers of the requests that succeeded are read (see `Batches.results`). */
  output_file: Schema.optional(Schema.NullOr(Schema.String)),
  /** Where the answers of the requests that failed are read. */
  error_file: Schema.optional(Schema.NullOr(Schema.String))
})

/**
 * @since 0.1.0
 * @category models
 */
export type Batch = typeof Batch.Type

/**
 * A page of batches, as `list` returns it: the newest first.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BatchList = Schema.Array(Batch)

/**
 * @since 0.1.0
 * @category models
 */
export type BatchList = typeof BatchList.Type

/**
 * The fields of a create besides its file: the endpoint every line is a request for, and metadata kept
 * with the batch.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CreateBatchFields = Schema.Struct({
  endpoint: BatchEndpoint,
  metadata: optional(Schema.Record(Schema.String, Schema.String))
})

/**
 * @since 0.1.0
 * @category models
 */
export type CreateBatchFields = typeof CreateBatchFields.Encoded

/**
 * A page of `list`: the batches after the batch `after` (a cursor: the id of the last batch seen), at most
 * `limit` (1 to 100, 20 by default).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ListBatchesRequest = Schema.Struct({
  after: optional(Schema.NonEmptyString),
  limit: optional(
    Schema.Number.check(
      Schema.makeFilter((value) =>
        (Number.isInteger(value) && value >= 1 && value <= batchPageLimits.max) ||
        `limit must be a whole number from 1 to ${batchPageLimits.max}`
      )
    )
  )
})

/**
 * @since 0.1.0
 * @category models
 */
export type ListBatchesRequest = typeof ListBatchesRequest.Encoded

/**
 * Which results `results` reads: the `output` file (answers of the requests that succeeded, the default)
 * or the `error` file; `force` reads them before the batch has finished.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BatchResultsRequest = Schema.Struct({
  fileType: optional(Schema.Literals(batchFileTypes)),
  force: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category models
 */
export type BatchResultsRequest = typeof BatchResultsRequest.Encoded

/**
 * One line of a batch's results: the request's `custom_id`, the status and body of its answer (a chat
 * completion, or the service's refusal), and the `error` of a request that failed.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BatchResult = Schema.Struct({
  id: Schema.optional(Schema.NullOr(Schema.String)),
  custom_id: Schema.String,
  response: Schema.optional(Schema.NullOr(Schema.Struct({
    status_code: Schema.Number,
    request_id: Schema.optional(Schema.NullOr(Schema.String)),
    body: Schema.Unknown
  }))),
  error: Schema.optional(Schema.NullOr(Schema.Struct({
    code: Schema.optional(Schema.NullOr(Schema.String)),
    message: Schema.String
  })))
})

/**
 * @since 0.1.0
 * @category models
 */
export type BatchResult = typeof BatchResult.Type

/**
 * A file of a batch's results: one `BatchResult` a line.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BatchResults = Schema.Array(BatchResult)

/**
 * @since 0.1.0
 * @category models
 */
export type BatchResults = typeof BatchResults.Type
