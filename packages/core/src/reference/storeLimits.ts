/**
 * The limits of the reference service's stores (each tenant's assistants, runs, library and batches, and the tenants
 * themselves), each from its option or its default.
 *
 * @since 0.1.0
 */
import { type AssistantStoreLimits, defaultAssistantStoreLimits } from "./assistants.js"
import { type BatchStoreLimits, defaultBatchStoreLimits } from "./batches.js"
import {
  defaultLibraryLimits,
  defaultMaxTotalLibraryBytes,
  defaultProcessingDuration,
  type LibraryLimits
} from "./library/library.js"
import { defaultRunStoreLimits } from "./runs.js"
import { defaultMaxTenants } from "./tenants.js"

/**
 * The options of the stores' limits; each has a default.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoreLimitOptions {
  readonly maxTenants?: number | undefined
  readonly maxRuns?: number | undefined
  readonly maxRunsSize?: number | undefined
  readonly maxAssistants?: number | undefined
  readonly maxAssistantSize?: number | undefined
  readonly maxFiles?: number | undefined
  readonly maxLibraryBytes?: number | undefined
  readonly maxFileBytes?: number | undefined
  readonly maxSearchAnswerBytes?: number | undefined
  /** The bytes of every tenant's library together (files and their index). */
  readonly maxTotalLibraryBytes?: number | undefined
  /** How long a file is `PROCESSING`, in milliseconds. */
  readonly fileProcessingDuration?: number | undefined
  readonly maxBatches?: number | undefined
  readonly maxBatchesSize?: number | undefined
}

/**
 * The limits in force.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoreLimits {
  readonly maxTenants: number
  readonly runs: { readonly maxRuns: number; readonly maxRunsSize: number }
  readonly assistants: AssistantStoreLimits
  readonly library: LibraryLimits
  readonly maxTotalLibraryBytes: number
  readonly fileProcessingDuration: number
  readonly batches: BatchStoreLimits
}

/**
 * The limits of `options`, each its default when not given.
 *
 * @since 0.1.0
 * @category limits
 */
export const storeLimits = (options: StoreLimitOptions): StoreLimits => ({
  maxTenants: options.maxTenants ?? defaultMaxTenants,
  runs: {
    maxRuns: options.maxRuns ?? defaultRunStoreLimits.maxRuns,
    maxRunsSize: options.maxRunsSize ?? defaultRunStoreLimits.maxRunsSize
  },
  assistants: {
    maxAssistants: options.maxAssistants ?? defaultAssistantStoreLimits.maxAssistants,
    maxAssistantSize: options.maxAssistantSize ?? defaultAssistantStoreLimits.maxAssistantSize
  },
  library: {
    maxFiles: options.maxFiles ?? defaultLibraryLimits.maxFiles,
    maxLibraryBytes: options.maxLibraryBytes ?? defaultLibraryLimits.maxLibraryBytes,
    maxFileBytes: options.maxFileBytes ?? defaultLibraryLimits.maxFileBytes,
    maxSearchAnswerBytes: options.maxSearchAnswerBytes ?? defaultLibraryLimits.maxSearchAnswerBytes
  },
  maxTotalLibraryBytes: options.maxTotalLibraryBytes ?? defaultMaxTotalLibraryBytes,
  fileProcessingDuration: options.fileProcessingDuration ?? defaultProcessingDuration,
  batches: {
    maxBatches: options.maxBatches ?? defaultBatchStoreLimits.maxBatches,
    maxBatchesSize: options.maxBatchesSize ?? defaultBatchStoreLimits.maxBatchesSize
  }
})
