/**
 * Schemas of the library of files (`/studio/v1/library/...`): a file as the service shows it, the
 * options of an upload and of a listing, the update of a file, a search and its results, and the status
 * of a batch. Field names are the wire names (the service's own mix of camelCase and snake_case).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import {
  isLabelsFilter,
  type LabelComparison as LabelComparisonType,
  type LabelsFilter as LabelsFilterType,
  labelsFilterIssue
} from "studio-effect-core/wire/labelsFilter"
import {
  fileStatuses,
  labelsFilterModes,
  maxSearchSegments,
  retrievalStrategies
} from "studio-effect-core/wire/library"
import { optional } from "./internal/schema/optional.js"

const wholeNumber = (what: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  Schema.Number.pipe(
    Schema.filter((value) =>
      (Number.isInteger(value) && value >= min && value <= max) ||
      (max === Number.MAX_SAFE_INTEGER
        ? `${what} must be a whole number of at least ${min}`
        : `${what} must be a whole number from ${min} to ${max}`)
    )
  )

const fraction = (what: string) =>
  Schema.Number.pipe(Schema.filter((value) => (value >= 0 && value <= 1) || `${what} must be between 0 and 1`))

const Labels = Schema.Array(Schema.NonEmptyString.annotations({ message: () => "a label cannot be empty" }))

/**
 * The status of a file: `PROCESSING` while it is being indexed, then `PROCESSED` (or
 * `PROCESSING_FAILED`); the real service also names `DB_RECORD_CREATED`, `UPLOADED` and `UPLOAD_FAILED`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FileStatus = Schema.Literal(...fileStatuses)

/**
 * @since 0.1.0
 * @category models
 */
export type FileStatus = typeof FileStatus.Type

/**
 * A file of the library, as `retrieve` and `list` return it. `status` is kept as the service sends it
 * (see `FileStatus` for the values it takes).
 *
 * @since 0.1.0
 * @category schemas
 */
export const LibraryFile = Schema.Struct({
  fileId: Schema.String,
  name: Schema.String,
  fileType: Schema.String,
  sizeBytes: Schema.Number,
  createdBy: Schema.String,
  /** The day of the upload, `YYYY-MM-DD`. */
  creationDate: Schema.String,
  /** The day of the last change, `YYYY-MM-DD`. */
  lastUpdated: Schema.String,
  status: Schema.String,
  path: Schema.optional(Schema.NullOr(Schema.String)),
  labels: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  publicUrl: Schema.optional(Schema.NullOr(Schema.String)),
  dataSource: Schema.optional(Schema.NullOr(Schema.String)),
  batchId: Schema.optional(Schema.NullOr(Schema.String)),
  errorCode: Schema.optional(Schema.NullOr(Schema.Number)),
  errorMessage: Schema.optional(Schema.NullOr(Schema.String))
})

/**
 * @since 0.1.0
 * @category models
 */
export type LibraryFile = typeof LibraryFile.Type

/**
 * A page of files, as `list` returns it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const LibraryFiles = Schema.Array(LibraryFile)

/**
 * What an upload returns: the new file's id.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UploadedFile = Schema.Struct({ fileId: Schema.String })

/**
 * @since 0.1.0
 * @category models
 */
export type UploadedFile = typeof UploadedFile.Type

/**
 * The fields sent with a file: a path-like string to filter by (`pets/dogs`), labels, a public URL kept as
 * metadata, the batch the file belongs to (which makes the upload a batch upload), and as the real service
 * takes them, `customConfigs`, `metadata` and `dataSource` (each text, as the form sends it).
 *
 * @since 0.1.0
 * @category schemas
 */
export const UploadFields = Schema.Struct({
  path: optional(Schema.String),
  labels: optional(Labels),
  publicUrl: optional(Schema.String),
  batchId: optional(Schema.NonEmptyString),
  /** Configuration of the file's processing, JSON text sent as the `custom_configs` field. */
  customConfigs: optional(Schema.String),
  /** Metadata kept with the file, JSON text sent as the `metadata` field. */
  metadata: optional(Schema.String),
  /** Where the file came from, sent as `data_source`; the file shows it as `dataSource`. */
  dataSource: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category models
 */
export type UploadFields = typeof UploadFields.Encoded

/**
 * Filters of `list`, each of which must hold (`label`: every label given), and the page: `offset` files
 * skipped, at most `limit` returned.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ListFilesRequest = Schema.Struct({
  name: optional(Schema.String),
  path: optional(Schema.String),
  status: optional(FileStatus),
  label: optional(Schema.Array(Schema.String)),
  limit: optional(wholeNumber("limit", 1)),
  offset: optional(wholeNumber("offset", 0))
})

/**
 * @since 0.1.0
 * @category models
 */
export type ListFilesRequest = typeof ListFilesRequest.Encoded

/**
 * The change of a file: the labels given replace all of its labels; the public URL given replaces its own.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UpdateFileRequest = Schema.Struct({
  labels: optional(Labels),
  publicUrl: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category models
 */
export type UpdateFileRequest = typeof UpdateFileRequest.Encoded

/**
 * A filter of files by their labels (`labels_filter`), as the real service's `QueryFilter`: a comparison
 * (`{ $in: ["billing", "travel"] }`; `$eq`, `$ne`, `$in`, `$nin`, `$all`), a logical operator over
 * filters (`{ $and: [...] }`, `{ $or: [...] }`), or a comparison under `labels`
 * (`{ labels: { $eq: "billing" } }`). Filters nest at most 8 deep and name at most 256 labels and filters.
 *
 * @since 1.1.0
 * @category schemas
 */
export const LabelsFilter = Schema.Unknown.pipe(
  Schema.filter((value) => {
    const issue = labelsFilterIssue(value)
    return issue === undefined || { path: issue.path, message: issue.message }
  }),
  Schema.filter(isLabelsFilter)
)

/**
 * @since 1.1.0
 * @category models
 */
export type LabelsFilter = LabelsFilterType

/**
 * @since 1.1.0
 * @category models
 */
export type LabelComparison = LabelComparisonType

/**
 * A search of the library: the query, the files it looks at (`fileIds`, `labels` as `labels_filter_mode`
 * says, `labels_filter`, `path` as a prefix), how many segments it returns (`maxSegments`, 1 to 100), what each result
 * shows (`retrievalStrategy`, `maxNeighbors`) and the least score of a result.
 *
 * @since 0.1.0
 * @category schemas
 */
export const LibrarySearchRequest = Schema.Struct({
  query: Schema.NonEmptyString.annotations({ message: () => "a search needs a query" }),
  maxSegments: optional(wholeNumber("maxSegments", 1, maxSearchSegments)),
  path: optional(Schema.String),
  labels: optional(Schema.Array(Schema.String)),
  labels_filter_mode: optional(Schema.Literal(...labelsFilterModes)),
  labels_filter: optional(LabelsFilter),
  fileIds: optional(Schema.Array(Schema.String)),
  retrievalStrategy: optional(Schema.Literal(...retrievalStrategies)),
  maxNeighbors: optional(wholeNumber("maxNeighbors", 0)),
  retrievalSimilarityThreshold: optional(fraction("retrievalSimilarityThreshold")),
  hybridSearchAlpha: optional(fraction("hybridSearchAlpha"))
})

/**
 * @since 0.1.0
 * @category models
 */
export type LibrarySearchRequest = typeof LibrarySearchRequest.Encoded

/**
 * One segment a search found: its text, its file, its relevance (`score`, higher is better) and its
 * place in the file (`order`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchResult = Schema.Struct({
  text: Schema.String,
  fileId: Schema.String,
  fileName: Schema.String,
  score: Schema.Number,
  order: Schema.optional(Schema.NullOr(Schema.Number)),
  publicUrl: Schema.optional(Schema.NullOr(Schema.String)),
  labels: Schema.optional(Schema.NullOr(Schema.Array(Schema.String)))
})

/**
 * What a search returns: the segments found, best first.
 *
 * @since 0.1.0
 * @category schemas
 */
export const LibrarySearchResponse = Schema.Struct({
  id: Schema.String,
  results: Schema.Array(SearchResult)
})

/**
 * @since 0.1.0
 * @category models
 */
export type LibrarySearchResponse = typeof LibrarySearchResponse.Type

/**
 * One segment of a parsed file: its place in the file and its text.
 *
 * @since 1.1.0
 * @category schemas
 */
export const ParsedSegment = Schema.Struct({ order: Schema.Number, text: Schema.String })

/**
 * The text the service extracted from a file (`GET .../parsed`): the file, all of its text, and its
 * segments in the file's order (the pieces a search ranks).
 *
 * @since 1.1.0
 * @category schemas
 */
export const ParsedFile = Schema.Struct({
  fileId: Schema.String,
  name: Schema.String,
  fileType: Schema.optional(Schema.String),
  text: Schema.String,
  segments: Schema.Array(ParsedSegment)
})

/**
 * @since 1.1.0
 * @category models
 */
export type ParsedFile = typeof ParsedFile.Type

/**
 * The status of a batch upload: how many files it has, and how many are in each status.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BatchStatus = Schema.Struct({
  batch_id: Schema.String,
  total_documents: Schema.Number,
  statuses: Schema.Array(Schema.Struct({ status: Schema.String, count: Schema.Number }))
})

/**
 * @since 0.1.0
 * @category models
 */
export type BatchStatus = typeof BatchStatus.Type
