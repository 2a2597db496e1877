/**
 * What `studio-effect batches` says: its commands' and options' descriptions, how it reads `--metadata
 * key=value`, and how it prints a batch.
 *
 * @since 0.1.0
 */
import type { Example } from "./help.js"

/**
 * The descriptions of the `batches` command, its subcommands, and their options and arguments.
 *
 * @since 0.1.0
 * @category constants
 */
export const batchesDescriptions = {
  command: "Run a JSONL file of chat requests as a batch, and read its results (with --reference each command " +
    "starts a fresh embedded service, so use `create --wait`, or `studio-effect serve` and STUDIO_BASE_URL)",
  create: "Create a batch from a JSONL file of chat requests (one a line, each with its custom_id) and print its id",
  get: "Print a batch as JSON",
  list: "List the batches, every page, the newest first: id, status, done/total, failed, one per line",
  cancel: "Cancel a batch: its requests not yet run are never run",
  results: "Print a batch's results as JSON Lines: the answers of its requests that succeeded (or, with --error, " +
    "of those that failed)",
  file: "The local JSONL file",
  batchId: "The batch's id",
  metadata: "Metadata kept with the batch, as key=value; repeat for several",
  wait: "Wait until the batch has finished, then print it as `batches list` does",
  error: "Read the error file: the requests the service refused",
  force: "Read the results before the batch has finished",
  json: "Print the service's answer as JSON"
} as const

/**
 * The examples of each `batches` subcommand's help, and of `batches`' own.
 *
 * @since 0.1.0
 * @category constants
 */
export const batchesExamples = {
  command: [
    { command: "studio-effect batches create requests.jsonl", description: "Create a batch" },
    { command: "studio-effect batches results 3f1c9a2e-...", description: "Its answers, once it has finished" }
  ],
  create: [
    {
      command: "studio-effect batches create requests.jsonl --metadata team=docs --wait --reference",
      description: "Create a batch against the embedded service and wait for it"
    }
  ],
  get: [{ command: "studio-effect batches get 3f1c9a2e-...", description: "A batch as JSON" }],
  list: [{ command: "studio-effect batches list", description: "Every batch, the newest first" }],
  cancel: [{ command: "studio-effect batches cancel 3f1c9a2e-...", description: "Cancel a batch" }],
  results: [{ command: "studio-effect batches results 3f1c9a2e-... --error", description: "The refused requests" }]
} as const satisfies Record<string, ReadonlyArray<Example>>

/**
 * The metadata of `--metadata key=value` flags, or why one cannot be read (no `=`, an empty key, a key twice).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseMetadataPairs = (
  pairs: ReadonlyArray<string>
): { readonly _tag: "Metadata"; readonly metadata: Record<string, string> | undefined } | {
  readonly _tag: "Invalid"
  readonly message: string
} => {
  if (pairs.length === 0) return { _tag: "Metadata", metadata: undefined }
  const entries: Array<readonly [string, string]> = []
  for (const pair of pairs) {
    const at = pair.indexOf("=")
    if (at <= 0) return { _tag: "Invalid", message: `--metadata ${pair}: write it as key=value` }
    const key = pair.slice(0, at)
    if (entries.some(([seen]) => seen === key)) return { _tag: "Invalid", message: `--metadata ${key} is given twice` }
    entries.push([key, pair.slice(at + 1)])
  }
  return { _tag: "Metadata", metadata: Object.fromEntries(entries) }
}

/**
 * A batch as `batches list` prints it: id, status, requests done of all, and failed.
 *
 * @since 0.1.0
 * @category formatting
 */
export const batchLine = (batch: {
  readonly id: string
  readonly status: string
  readonly request_counts: { readonly total: number; readonly completed: number; readonly failed: number }
}): string => {
  const { completed, failed, total } = batch.request_counts
  return `${batch.id}  ${batch.status}  ${completed + failed}/${total}  ${failed} failed`
}
