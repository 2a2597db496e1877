/**
 * The library of files (`/studio/v1/library/...`): the values its fields take and the shapes of its
 * requests, as the real service's OpenAPI gives them.
 *
 * @since 0.1.0
 */

/**
 * The statuses of a file: the real service's list, and `PROCESSING` (a file being indexed, which it shows
 * too and which cannot be deleted).
 *
 * @since 0.1.0
 * @category models
 */
export const fileStatuses = [
  "DB_RECORD_CREATED",
  "UPLOADED",
  "UPLOAD_FAILED",
  "PROCESSING",
  "PROCESSED",
  "PROCESSING_FAILED"
] as const

/**
 * @since 0.1.0
 * @category models
 */
export type FileStatus = typeof fileStatuses[number]

/**
 * How `labels` filter files: `AND` (default) keeps a file with every label, `OR` one with any of them.
 *
 * @since 0.1.0
 * @category models
 */
export const labelsFilterModes = ["AND", "OR"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type LabelsFilterMode = typeof labelsFilterModes[number]

/**
 * What a search returns of each match: the segment (`segments`, `default`), the segment with its
 * neighbours (`add_neighbors`), or the whole file (`full_doc`).
 *
 * @since 0.1.0
 * @category models
 */
export const retrievalStrategies = ["segments", "default", "add_neighbors", "full_doc"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type RetrievalStrategy = typeof retrievalStrategies[number]

/**
 * How a file is uploaded: at once, or as part of a batch (`batch_id`).
 *
 * @since 0.1.0
 * @category models
 */
export const uploadModes = ["immediate", "batch"] as const

/**
 * Which files a search looks at: all of the conditions given hold (`fileIds` holds the file, its labels
 * match `labels` as `labelsFilterMode` says, its path starts with `path`).
 *
 * @since 0.1.0
 * @category models
 */
export interface FileFilter {
  readonly fileIds?: ReadonlyArray<string> | undefined
  readonly labels?: ReadonlyArray<string> | undefined
  readonly labelsFilterMode?: LabelsFilterMode | undefined
  readonly path?: string | undefined
}

/**
 * A search of the library (`POST /studio/v1/library/search`).
 *
 * @since 0.1.0
 * @category models
 */
export interface LibrarySearchRequest {
  readonly query: string
  readonly maxSegments?: number | undefined
  readonly path?: string | undefined
  readonly labels?: ReadonlyArray<string> | undefined
  readonly labels_filter_mode?: LabelsFilterMode | undefined
  readonly fileIds?: ReadonlyArray<string> | undefined
  readonly retrievalStrategy?: RetrievalStrategy | undefined
  readonly maxNeighbors?: number | undefined
  readonly retrievalSimilarityThreshold?: number | undefined
  readonly hybridSearchAlpha?: number | undefined
}

/**
 * The most segments one search returns.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxSearchSegments = 100

/**
 * The most labels a library's files carry between them (distinct labels), as the real service allows.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxLibraryLabels = 20
