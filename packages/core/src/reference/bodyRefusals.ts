/**
 * Why the reference service refuses a request body before decoding it, and what it answers: a body over its
 * size limit (413), one that would pass the budget of bodies still arriving (503, see `byteBudget`), one
 * still arriving when the service stops (503), and one that could not be read at all.
 *
 * @since 0.1.0
 */
import { endpoints } from "../wire/endpoints.js"
import { defaultMaxPendingBodyBytes } from "./byteBudget.js"
import { defaultMaxJsonDepth } from "./fastApi.js"
import { defaultLibraryLimits } from "./library/library.js"
import { pathOf } from "./requestPath.js"

/**
 * The default limit of a request body: 1 MiB.
 *
 * @since 0.1.0
 * @category limits
 */
export const defaultMaxBodyBytes = 1024 * 1024

/** What a multipart body may hold besides its file: the fields and the boundaries between them. */
const multipartOverhead = 64 * 1024

/**
 * The limits of the bodies the service reads.
 *
 * @since 0.1.0
 * @category limits
 */
export interface BodyLimits {
  readonly maxBodyBytes: number
  /** An upload's body holds a file of up to `maxFileBytes` and its form fields, never below `maxBodyBytes`. */
  readonly maxUploadBytes: number
  readonly maxJsonDepth: number
  /** The bytes of all bodies still arriving. */
  readonly maxPendingBodyBytes: number
}

/**
 * The limits of the options, each its default when not given.
 *
 * @since 0.1.0
 * @category limits
 */
export const bodyLimitsOf = (options: {
  readonly maxBodyBytes?: number | undefined
  readonly maxJsonDepth?: number | undefined
  readonly maxFileBytes?: number | undefined
  readonly maxPendingBodyBytes?: number | undefined
}): BodyLimits => {
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes
  return {
    maxBodyBytes,
    maxUploadBytes: Math.max(
      maxBodyBytes,
      (options.maxFileBytes ?? defaultLibraryLimits.maxFileBytes) + multipartOverhead
    ),
    maxJsonDepth: options.maxJsonDepth ?? defaultMaxJsonDepth,
    maxPendingBodyBytes: options.maxPendingBodyBytes ?? defaultMaxPendingBodyBytes
  }
}

/** The paths whose bodies carry a file: an upload to the library, a batch's file. */
const uploadPaths: ReadonlySet<string> = new Set([endpoints.libraryUpload.path, endpoints.batchesCreate.path])

/**
 * The limit of a request's body: an upload's own (a file to the library or a batch's), or every other body's.
 *
 * @since 0.1.0
 * @category limits
 */
export const bodyLimitOf = (limits: BodyLimits, method: string, url: string): number =>
  method === "POST" && uploadPaths.has(pathOf(url)) ? limits.maxUploadBytes : limits.maxBodyBytes

/**
 * The body is larger than the limit.
 *
 * @since 0.1.0
 * @category refusals
 */
export class BodyTooLarge {
  readonly _tag = "BodyTooLarge"
  constructor(readonly limit: number) {}
}

/**
 * The bodies still being received hold the whole budget: this one is refused.
 *
 * @since 0.1.0
 * @category refusals
 */
export class BudgetSpent {
  readonly _tag = "BudgetSpent"
  constructor(readonly limit: number) {}
}

/**
 * The body could not be read (the client went away, or its stream failed).
 *
 * @since 0.1.0
 * @category refusals
 */
export class BodyUnreadable {
  readonly _tag = "BodyUnreadable"
}

/**
 * A body still arriving when the service stops.
 *
 * @since 0.1.0
 * @category refusals
 */
export class ShuttingDown {
  readonly _tag = "ShuttingDown"
}

/**
 * The `detail` of a 413.
 *
 * @since 0.1.0
 * @category details
 */
export const tooLargeDetail = (limit: number): string => `Request body too large: the limit is ${limit} bytes.`

/**
 * The `detail` of the answers a service shutting down gives, and of the last event of its open streams.
 *
 * @since 0.1.0
 * @category details
 */
export const shuttingDownDetail = "The service is shutting down: this answer is cut short. Retry once it is back."

/**
 * The length a `content-length` header declares, when it declares a valid one.
 *
 * @since 0.1.0
 * @category headers
 */
export const declaredLength = (header: string | undefined): number | undefined =>
  header !== undefined && /^\s*\d+\s*$/.test(header) ? Number(header) : undefined
