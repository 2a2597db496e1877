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

import type { LabelsFilter } from "./labelsFilter.js"
import { type LabelsFilterMode, labelsFilterModes, retrievalStrategies, type RetrievalStrategy } from "./runs.js"

// the values of a file search's filters, as a run's `file_search` tool takes them
export { type LabelsFilterMode, labelsFilterModes, retrievalStrategies, type RetrievalStrategy }

/**
 * How a file is uploaded: at once, or as part of a batch (`batch_id`).
 *
 * @since 0.1.0
 * @category models
 */
export const uploadModes = ["immediate", "batch"] as const

/**
 * Which files a search looks at: all of the conditions given hold (`fileIds` holds the file, its labels
 * match `labels` as `labelsFilterMode` says and pass `labelsFilter`, its path starts with `path`).
 *
 * @since 0.1.0
 * @category models
 */
export interface FileFilter {
  readonly fileIds?: ReadonlyArray<string> | undefined
  readonly labels?: ReadonlyArray<string> | undefined
  readonly labelsFilterMode?: LabelsFilterMode | undefined
  readonly labelsFilter?: LabelsFilter | undefined
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
  readonly labels_filter?: LabelsFilter | undefined
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
