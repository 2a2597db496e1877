/**
 * What the reference service reads from a request of the Batch API, as FastAPI would check it: the form of a
 * create (its file checked line by line, its endpoint, its metadata), the query of a page, and the query of
 * results. A broken rule is a 422 issue that names the field (and the line) and says what is wrong.
 *
 * @since 0.1.0
 */
import {
  type BatchFileType,
  batchFileTypes,
  type BatchLine,
  batchPageLimits,
  checkBatchFile,
  defaultBatchFileBounds,
  parseBatchMetadata
} from "../wire/batches.js"
import type { FastApiIssue } from "./fastApi.js"

/**
 * A checked request, or its 422 issues.
 *
 * @since 0.1.0
 * @category models
 */
export type Checked<A> = A | { readonly _tag: "Invalid"; readonly issues: ReadonlyArray<FastApiIssue> }

const invalid = (loc: ReadonlyArray<string | number>, msg: string, type = "value_error") => ({
  _tag: "Invalid" as const,
  issues: [{ loc, msg, type }]
})

/**
 * The form of a create: its file (the bytes of the `file` part), `endpoint` and `metadata` fields.
 *
 * @since 0.1.0
 * @category requests
 */
export const batchRequestIssues = (form: {
  readonly file: Uint8Array | undefined
  readonly endpoint: string | undefined
  readonly metadata: string | undefined
}): Checked<{
  readonly _tag: "Batch"
  readonly batch: {
    readonly endpoint: string
    readonly metadata: Readonly<Record<string, string>> | undefined
    readonly lines: ReadonlyArray<BatchLine>
  }
}> => {
  const missing: Array<FastApiIssue> = []
  if (form.file === undefined) missing.push({ loc: ["body", "file"], msg: "Field required", type: "missing" })
  if (form.endpoint === undefined) missing.push({ loc: ["body", "endpoint"], msg: "Field required", type: "missing" })
  if (form.file === undefined || form.endpoint === undefined) return { _tag: "Invalid", issues: missing }
  const metadata = parseBatchMetadata(form.metadata)
  if (metadata._tag === "Invalid") return invalid(["body", "metadata"], metadata.message)
  let text: string
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(form.file)
  } catch {
    return invalid(["body", "file"], "The file is not UTF-8 text: send JSON Lines")
  }
  const checked = checkBatchFile(text, form.endpoint, defaultBatchFileBounds)
  if (checked._tag === "Invalid") {
    return {
      _tag: "Invalid",
      issues: checked.issues.map((issue) => ({
        loc: issue.line === 0 && issue.message.startsWith("endpoint")
          ? ["body", "endpoint"]
          : issue.line === 0
          ? ["body", "file"]
          : ["body", "file", issue.line],
        msg: issue.line === 0 ? issue.message : `line ${issue.line} ${issue.message}`,
        type: "value_error"
      }))
    }
  }
  return {
    _tag: "Batch",
    batch: { endpoint: form.endpoint, metadata: metadata.metadata, lines: checked.lines }
  }
}

/**
 * A value the official Python SDK sends for a parameter it was not given (`file_type=NOT_GIVEN`): read as
 * the parameter left out.
 */
const notGiven = "NOT_GIVEN"

const given = (query: URLSearchParams, name: string): string | undefined => {
  const value = query.get(name)
  return value === null || value === "" || value === notGiven ? undefined : value
}

/**
 * The query of a page of batches: `after` (a batch id) and `limit` (1 to 100, 20 when not given).
 *
 * @since 0.1.0
 * @category requests
 */
export const batchPage = (query: URLSearchParams): Checked<{
  readonly _tag: "Page"
  readonly page: { readonly after: string | undefined; readonly limit: number }
}> => {
  const limitText = given(query, "limit")
  const limit = limitText === undefined ? batchPageLimits.default : Number(limitText)
  if (!(/^\d{1,4}$/.test(limitText ?? "20") && limit >= 1 && limit <= batchPageLimits.max)) {
    return invalid(["query", "limit"], `Input should be a whole number from 1 to ${batchPageLimits.max}`)
  }
  return { _tag: "Page", page: { after: given(query, "after"), limit } }
}

/**
 * The query of a batch's results: `file_type` (`output`, the default, or `error`) and `force`.
 *
 * @since 0.1.0
 * @category requests
 */
export const batchResultsOptions = (query: URLSearchParams): Checked<{
  readonly _tag: "Results"
  readonly fileType: BatchFileType
  readonly force: boolean
}> => {
  const fileType = given(query, "file_type") ?? "output"
  if (!(batchFileTypes as ReadonlyArray<string>).includes(fileType)) {
    return invalid(["query", "file_type"], `Input should be 'output' or 'error'`, "literal_error")
  }
  const force = given(query, "force")?.toLowerCase() ?? "false"
  if (force !== "true" && force !== "false") {
    return invalid(["query", "force"], "Input should be a valid boolean", "bool_parsing")
  }
  return { _tag: "Results", fileType: fileType as BatchFileType, force: force === "true" }
}
