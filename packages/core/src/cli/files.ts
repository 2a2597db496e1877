/**
 * What `studio-effect files` says: its commands' and options' descriptions, and how it prints a file of the
 * library and a segment a search found.
 *
 * @since 0.1.0
 */
import type { Example } from "./help.js"

/**
 * The descriptions of the `files` command, its subcommands, and their options and arguments.
 *
 * @since 0.1.0
 * @category constants
 */
export const filesDescriptions = {
  command: "Manage and search the library of files that runs search (with --reference each command starts a fresh " +
    "embedded service, so use `studio-effect serve` and STUDIO_BASE_URL to keep files between commands)",
  upload: "Upload a file to the library and print its id",
  list: "List the library's files, every page: id, status, name and labels, one per line",
  get: "Print a file's metadata as JSON",
  update: "Replace a file's labels (all of them) and public URL",
  delete: "Delete a file",
  search: "Search the library's segments: score, file name and text, best first",
  download: "Download a file's bytes as uploaded: to stdout, or to a local file with --output",
  parsed: "Print the text the service extracted from a file (--json: with its segments)",
  output: "The local file to write the download to (replaced if it exists)",
  json: "Print the service's answer as JSON",
  label: "A label; repeat for several",
  path: "A path-like string to organize and filter files by (pets/dogs); filters match it as a prefix",
  publicUrl: "A public URL kept with the file",
  fileId: "The file's id",
  file: "The local file (.txt, .md, .html, .json, .pdf, .docx)",
  name: "Only the files of this name",
  status: "Only files in this status",
  query: "What to look for",
  maxSegments: "The most segments returned (1-100)"
} as const

/**
 * The examples of each `files` subcommand's help, and of `files`' own.
 *
 * @since 0.2.0
 * @category constants
 */
export const filesExamples = {
  command: [
    { command: "studio-effect files upload notes.md -l tea", description: "Upload a file with a label" },
    { command: "studio-effect files search \"green tea\"", description: "Search the library" }
  ],
  upload: [
    { command: "studio-effect files upload notes.md -l tea --path guides/tea", description: "With a label and a path" }
  ],
  list: [{ command: "studio-effect files list --label tea", description: "The files labelled tea" }],
  get: [{ command: "studio-effect files get file_123", description: "A file's metadata as JSON" }],
  update: [{ command: "studio-effect files update file_123 -l tea -l green", description: "Replace its labels" }],
  delete: [{ command: "studio-effect files delete file_123", description: "Delete a file" }],
  search: [{
    command: "studio-effect files search \"green tea\" --max-segments 5",
    description: "The 5 best segments"
  }],
  download: [{ command: "studio-effect files download file_123 -o notes.md", description: "Save a file locally" }],
  parsed: [{ command: "studio-effect files parsed file_123", description: "The text the service extracted" }]
} as const satisfies Record<string, ReadonlyArray<Example>>

/**
 * Why a local file could not be read for its upload.
 *
 * @since 0.1.0
 * @category formatting
 */
export const cannotReadMessage = (file: string, cause: unknown): string =>
  `cannot read ${file}: ${cause instanceof Error ? cause.message : cause}`

/**
 * Why a download could not be written to a local file.
 *
 * @since 1.1.0
 * @category formatting
 */
export const cannotWriteMessage = (file: string, cause: unknown): string =>
  `cannot write ${file}: ${cause instanceof Error ? cause.message : cause}`

/**
 * What `files download -o` prints once the file is written: where, and how many bytes.
 *
 * @since 1.1.0
 * @category formatting
 */
export const savedLine = (file: string, bytes: number): string => `saved ${file} (${bytes} bytes)`

/**
 * A file of the library as `files list` prints it: id, status, name and labels.
 *
 * @since 0.1.0
 * @category formatting
 */
export const fileLine = (file: {
  readonly fileId: string
  readonly status: string
  readonly name: string
  readonly labels?: ReadonlyArray<string> | null | undefined
}): string => `${file.fileId}  ${file.status}  ${file.name}  ${(file.labels ?? []).join(",")}`

/**
 * A segment a search found as `files search` prints it: its score, its file's name, and its text on one line.
 *
 * @since 0.1.0
 * @category formatting
 */
export const searchHitLine = (hit: {
  readonly score: number
  readonly fileName: string
  readonly text: string
}): string => `${hit.score.toFixed(3)}  ${hit.fileName}  ${hit.text.replace(/\s+/gu, " ").trim()}`
