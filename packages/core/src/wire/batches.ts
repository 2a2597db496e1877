/**
 * The Batch API on the wire (`/studio/v1/batches`), as the official Python SDK's `beta.batches` calls it:
 * the endpoints a batch may run, its statuses, the query of a page and of its results, the multipart form of
 * a create, and the rules of its JSONL file (one chat request a line, each with its `custom_id`), which the
 * SDK checks before sending and the reference service checks again when it receives the file.
 *
 * @since 0.1.0
 */

/**
 * The endpoints a batch may run: chat completions.
 *
 * @since 0.1.0
 * @category constants
 */
export const batchEndpoints = ["/v1/chat/completions"] as const

/**
 * An endpoint a batch may run.
 *
 * @since 0.1.0
 * @category models
 */
export type BatchEndpoint = typeof batchEndpoints[number]

/**
 * Every status of a batch, as the service spells them.
 *
 * @since 0.1.0
 * @category constants
 */
export const batchStatuses = ["PENDING", "PROCESSING", "COMPLETED", "FAILED", "CANCELLED", "EXPIRED", "STALE"] as const

/**
 * A status of a batch.
 *
 * @since 0.1.0
 * @category models
 */
export type BatchStatus = typeof batchStatuses[number]

/**
 * The statuses after which a batch no longer changes.
 *
 * @since 0.1.0
 * @category constants
 */
export const finishedBatchStatuses: ReadonlyArray<BatchStatus> = ["COMPLETED", "FAILED", "CANCELLED", "EXPIRED"]

/**
 * Whether a batch's status (as the service sends it) is one after which the batch no longer changes. A status
 * the SDK does not know, and `STALE`, are not: waiting goes on until the batch finishes or the wait's deadline.
 *
 * @since 1.1.0
 * @category predicates
 */
export const isFinishedBatchStatus = (status: string): boolean =>
  (finishedBatchStatuses as ReadonlyArray<string>).includes(status)

/**
 * The files of a batch's results: the answers of the requests that succeeded, or those that failed.
 *
 * @since 0.1.0
 * @category constants
 */
export const batchFileTypes = ["output", "error"] as const

/**
 * A file of a batch's results.
 *
 * @since 0.1.0
 * @category models
 */
export type BatchFileType = typeof batchFileTypes[number]

/**
 * The most batches a page holds, and how many when the page's `limit` is not given.
 *
 * @since 0.1.0
 * @category constants
 */
export const batchPageLimits = { max: 100, default: 20 } as const

/**
 * The bounds of a batch's file: its bytes, its lines, the characters of one line.
 *
 * @since 0.1.0
 * @category models
 */
export interface BatchFileBounds {
  readonly maxFileBytes: number
  readonly maxLines: number
  readonly maxLineLength: number
}

/**
 * The bounds of a batch's file when none are given: 64 MiB, 10,000 lines, 1 Mi characters a line.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultBatchFileBounds: BatchFileBounds = {
  maxFileBytes: 64 * 1024 * 1024,
  maxLines: 10_000,
  maxLineLength: 1024 * 1024
}

/**
 * The most problems of a file reported at once: the first ones, in line order.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxReportedLineIssues = 20

/**
 * The query of a page of batches: the cursor (the id of the last batch seen) and the page's size.
 *
 * @since 0.1.0
 * @category paths
 */
export const batchesListQuery = (page: {
  readonly after?: string | undefined
  readonly limit?: number | undefined
}): string => {
  const query = new URLSearchParams()
  if (page.after !== undefined) query.set("after", page.after)
  if (page.limit !== undefined) query.set("limit", String(page.limit))
  return query.toString()
}

/**
 * The query of a batch's results: which file, and whether to read it before the batch has finished.
 *
 * @since 0.1.0
 * @category paths
 */
export const batchResultsQuery = (options: {
  readonly fileType?: BatchFileType | undefined
  readonly force?: boolean | undefined
}): string => {
  const query = new URLSearchParams()
  if (options.fileType !== undefined) query.set("file_type", options.fileType)
  if (options.force !== undefined) query.set("force", String(options.force))
  return query.toString()
}

/**
 * The multipart form of a create: the file, the endpoint, and the metadata (as its JSON) when given.
 *
 * @since 0.1.0
 * @category forms
 */
export const batchForm = async (
  blob: Blob,
  name: string,
  fields: { readonly endpoint: string; readonly metadata?: Readonly<Record<string, string>> | undefined }
): Promise<{ readonly bytes: Uint8Array; readonly contentType: string }> => {
  const form = new FormData()
  form.append("file", blob, name)
  form.append("endpoint", fields.endpoint)
  if (fields.metadata !== undefined) form.append("metadata", JSON.stringify(fields.metadata))
  const encoded = new Response(form)
  return { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! }
}

/**
 * The metadata of a create's form: a JSON object of strings, or absent.
 *
 * @since 0.1.0
 * @category forms
 */
export const parseBatchMetadata = (
  text: string | undefined
): { readonly _tag: "Metadata"; readonly metadata: Record<string, string> | undefined } | {
  readonly _tag: "Invalid"
  readonly message: string
} => {
  if (text === undefined || text === "") return { _tag: "Metadata", metadata: undefined }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { _tag: "Invalid", message: "metadata is not JSON: send an object of strings, such as {\"team\":\"a\"}" }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      _tag: "Invalid",
      message: "metadata is not an object: send an object of strings, such as {\"team\":\"a\"}"
    }
  }
  const entries = Object.entries(value)
  for (const [key, field] of entries) {
    if (typeof field !== "string") return { _tag: "Invalid", message: `metadata.${key} is not a string` }
  }
  // own properties, `__proto__` included, as JSON names them
  return { _tag: "Metadata", metadata: Object.fromEntries(entries) as Record<string, string> }
}

/**
 * One line of a batch's file once checked: its `custom_id` and the request it holds.
 *
 * @since 0.1.0
 * @category models
 */
export interface BatchLine {
  readonly customId: string
  readonly body: Readonly<Record<string, unknown>>
}

/**
 * A broken rule of a batch's file: the line (from 1; 0 for the file as a whole) and what is wrong.
 *
 * @since 0.1.0
 * @category models
 */
export interface BatchLineIssue {
  readonly line: number
  readonly message: string
}

/**
 * What checking a batch's file gives: its lines, or its first problems.
 *
 * @since 0.1.0
 * @category models
 */
export type BatchFileCheck =
  | { readonly _tag: "Lines"; readonly lines: ReadonlyArray<BatchLine> }
  | { readonly _tag: "Invalid"; readonly issues: ReadonlyArray<BatchLineIssue> }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Checks one line of a batch's file: a JSON object with a non-empty string `custom_id`, `method` `POST` when
 * given, `url` the batch's endpoint when given, and a `body` object (the request, whose own rules the
 * service checks when it runs it: a request it refuses goes to the error file).
 *
 * @since 0.1.0
 * @category rules
 */
export const checkBatchLine = (text: string, endpoint: string): BatchLine | string => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return "is not JSON"
  }
  if (!isRecord(value)) return "is not a JSON object"
  const { body, custom_id, method, url } = value
  if (typeof custom_id !== "string" || custom_id === "") return "has no custom_id (a non-empty string)"
  if (method !== undefined && method !== "POST") return `has method ${JSON.stringify(method)}: only "POST" is run`
  if (url !== undefined && url !== endpoint) {
    return `has url ${JSON.stringify(url)}, not the batch's endpoint ${JSON.stringify(endpoint)}`
  }
  if (!isRecord(body)) return "has no body (the request, a JSON object)"
  return { customId: custom_id, body }
}

/**
 * Checks a batch's file (its text): at least one line, at most `maxLines` lines (blank lines skipped) of at
 * most `maxLineLength` characters, each line a request for `endpoint` (`checkBatchLine`), no `custom_id`
 * twice. Reading stops at the first `maxReportedLineIssues` problems.
 *
 * @since 0.1.0
 * @category rules
 */
export const checkBatchFile = (
  text: string,
  endpoint: string,
  bounds: Pick<BatchFileBounds, "maxLines" | "maxLineLength"> = defaultBatchFileBounds
): BatchFileCheck => {
  if (!(batchEndpoints as ReadonlyArray<string>).includes(endpoint)) {
    return {
      _tag: "Invalid",
      issues: [{ line: 0, message: `endpoint ${JSON.stringify(endpoint)} is not one of ${batchEndpoints.join(", ")}` }]
    }
  }
  const lines: Array<BatchLine> = []
  const issues: Array<BatchLineIssue> = []
  const seen = new Set<string>()
  let start = 0
  let number = 0
  while (start <= text.length && issues.length < maxReportedLineIssues) {
    const end = text.indexOf("\n", start)
    const stop = end === -1 ? text.length : end
    number++
    const length = stop - start
    if (length > bounds.maxLineLength) {
      issues.push({ line: number, message: `is longer than ${bounds.maxLineLength} characters` })
    } else {
      const line = text.slice(start, stop).replace(/\r$/, "")
      if (line.trim() !== "") {
        if (lines.length + issues.length >= bounds.maxLines) {
          issues.push({ line: 0, message: `the file has more than ${bounds.maxLines} lines` })
          break
        }
        const checked = checkBatchLine(line, endpoint)
        if (typeof checked === "string") {
          issues.push({ line: number, message: checked })
        } else if (seen.has(checked.customId)) {
          issues.push({ line: number, message: `repeats custom_id ${JSON.stringify(checked.customId)}` })
        } else {
          seen.add(checked.customId)
          lines.push(checked)
        }
      }
    }
    if (end === -1) break
    start = end + 1
  }
  if (issues.length > 0) return { _tag: "Invalid", issues }
  if (lines.length === 0) return { _tag: "Invalid", issues: [{ line: 0, message: "the file has no request" }] }
  return { _tag: "Lines", lines }
}

/**
 * A problem of a batch's file in words: `line 3 is not JSON`, or the file's own.
 *
 * @since 0.1.0
 * @category rules
 */
export const batchIssueMessage = (issue: BatchLineIssue): string =>
  issue.line === 0 ? issue.message : `line ${issue.line} ${issue.message}`

/**
 * The values of a JSON Lines text (blank lines skipped), or the first line that is not JSON.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseJsonLines = (
  text: string
): { readonly _tag: "Values"; readonly values: ReadonlyArray<unknown> } | {
  readonly _tag: "Broken"
  readonly line: number
} => {
  const values: Array<unknown> = []
  const lines = text.split("\n")
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    if (line.trim() === "") continue
    try {
      values.push(JSON.parse(line))
    } catch {
      return { _tag: "Broken", line: index + 1 }
    }
  }
  return { _tag: "Values", values }
}
