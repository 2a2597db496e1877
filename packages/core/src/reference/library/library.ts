/**
 * The library of the reference service: files uploaded with their labels, path and public URL, indexed
 * into segments, and searched by BM25 (see `bm25.ts`). It is one self-contained value, bounded in files,
 * bytes (a file's and its index's, see `heldBytesOf`) and the size of each file, and it takes its bytes
 * from a budget every library of the service shares. A search runs in steps of bounded work (`Steps`), and
 * its answer holds each file's text at most once and at most `maxSearchAnswerBytes` bytes of JSON. A file
 * is `PROCESSING` for `processingDuration` after its upload, then `PROCESSED` (or `PROCESSING_FAILED` when
 * its text cannot be read): its status is computed from the time given on every read, so the caller's clock
 * drives it and nothing sleeps. Only processed files are searched.
 */
import { labelsFilterMatches } from "../../wire/labelsFilter.js"
import {
  type FileFilter,
  type LabelsFilterMode,
  type LibrarySearchRequest,
  maxLibraryLabels,
  type RetrievalStrategy
} from "../../wire/library.js"
import { type ByteBudget, makeByteBudget } from "../byteBudget.js"
import type { Ids } from "../ids.js"
import { type BoundedText, joinWithin, jsonBytes } from "./answerBytes.js"
import * as Bm25 from "./bm25.js"
import { fileTypeOf, type IndexedFileType, indexedFileTypes, segmentsOf, storedFileTypes, textOf } from "./segments.js"
import type { Steps } from "./steps.js"

/** The limits of a library. */
export interface LibraryLimits {
  /** The most files. */
  readonly maxFiles: number
  /** The most bytes of all files together, each file's index counted with its bytes (`heldBytesOf`). */
  readonly maxLibraryBytes: number
  /** The largest file, in bytes. */
  readonly maxFileBytes: number
  /** The most bytes of JSON a search answers; past it, texts are cut and hits left out (`truncated`). */
  readonly maxSearchAnswerBytes: number
}

/** The limits when none are given: 1,000 files, 64 MiB in all, 4 MiB a file, answers of 8 MiB. */
export const defaultLibraryLimits: LibraryLimits = {
  maxFiles: 1000,
  maxLibraryBytes: 64 * 1024 * 1024,
  maxFileBytes: 4 * 1024 * 1024,
  maxSearchAnswerBytes: 8 * 1024 * 1024
}

/** The most bytes every library of a service holds together (files and indexes), by default: 256 MiB. */
export const defaultMaxTotalLibraryBytes = 256 * 1024 * 1024

/** How long a file is `PROCESSING` when not given: 1 second. */
export const defaultProcessingDuration = 1000

/** The longest label, path, name and public URL, in UTF-16 code units. */
export const maxFieldLength = 1024

/** A file to upload, with the fields of the multipart form. */
export interface Upload {
  readonly name: string
  readonly bytes: Uint8Array
  readonly path?: string | undefined
  readonly labels?: ReadonlyArray<string> | undefined
  readonly publicUrl?: string | undefined
  readonly batchId?: string | undefined
  readonly dataSource?: string | undefined
}

/** A problem with a request, where it is and what to do, as a 422 reports it. */
export interface LibraryIssue {
  readonly loc: ReadonlyArray<string | number>
  readonly msg: string
  readonly type: string
}

/** A file's bytes as uploaded, with the name and content type it is downloaded with. */
export interface Download {
  readonly name: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

/** The text the library extracted from a file: all of it, and its segments in the file's order. */
export interface ParsedFile {
  readonly fileId: string
  readonly name: string
  readonly fileType: string
  /** The segments' texts, joined by blank lines. */
  readonly text: string
  readonly segments: ReadonlyArray<{ readonly order: number; readonly text: string }>
}

/** The outcome of reading a file's parsed text. */
export type Parsed =
  | { readonly _tag: "Parsed"; readonly value: ParsedFile }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "NotReady"; readonly message: string }

/** The content type of each file type, as a download sends it. */
const contentTypes: Readonly<Record<string, string>> = {
  txt: "text/plain; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  html: "text/html; charset=utf-8",
  json: "application/json",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
}

/** The content type a file of `fileType` is downloaded with. */
export const contentTypeOf = (fileType: string): string => contentTypes[fileType] ?? "application/octet-stream"

/**
 * The `Content-Disposition` of a file sent as an attachment named `name`: an ASCII `filename` (other
 * characters, quotes and backslashes as `_`) and the exact name as `filename*` (RFC 6266, UTF-8).
 */
export const attachmentDisposition = (name: string): string =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${
    encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  }`

/** The outcome of a write: done, refused for its size (413), or refused for a broken rule (422). */
export type Write<A> =
  | { readonly _tag: "Done"; readonly value: A }
  | { readonly _tag: "TooLarge"; readonly message: string }
  | { readonly _tag: "Invalid"; readonly issues: ReadonlyArray<LibraryIssue> }

/** What a search found in one segment. */
export interface Hit {
  readonly text: string
  readonly fileId: string
  readonly fileName: string
  /** The BM25 score mapped into [0, 1) (`Bm25.similarity`). */
  readonly score: number
  /** The segment's place in its file, from 0. */
  readonly order: number
  readonly publicUrl: string | null
  readonly labels: ReadonlyArray<string>
}

/** What a search found: its hits, and whether some were cut or left out to keep its answer's bound. */
export interface Found {
  readonly hits: ReadonlyArray<Hit>
  readonly truncated: boolean
}

interface Segment extends Bm25.IndexedText {
  readonly text: string
}

interface StoredFile {
  readonly fileId: string
  readonly name: string
  readonly fileType: string
  readonly sizeBytes: number
  readonly path: string | undefined
  labels: ReadonlyArray<string>
  publicUrl: string | undefined
  readonly batchId: string | undefined
  readonly dataSource: string | undefined
  /** The bytes as uploaded, which `download` gives back; counted in `heldBytes`. */
  readonly bytes: Uint8Array
  readonly createdAt: number
  updatedAt: number
  readonly segments: ReadonlyArray<Segment>
  /** What the file takes from the library's budget: its bytes and its index's (`heldBytesOf`). */
  readonly heldBytes: number
  /** Why the file's text could not be read, when it could not. */
  readonly failure: string | undefined
}

const decoder = new TextDecoder("utf-8")

/**
 * The bytes a file takes from its library's budget: its own, and what its index holds (a key and a count
 * for each distinct term of each segment). The segments' text is about the file's bytes, so a library holds
 * at most about twice its budget in memory, whatever its words.
 */
export const heldBytesOf = (fileBytes: number, segments: ReadonlyArray<Bm25.IndexedText>): number =>
  segments.reduce((held, segment) => held + Bm25.indexBytes(segment), fileBytes)

/** The day of a time, `YYYY-MM-DD` (UTC). */
const dayOf = (time: number): string => new Date(time).toISOString().slice(0, 10)

const issue = (loc: ReadonlyArray<string | number>, msg: string, type = "value_error"): LibraryIssue => ({
  loc,
  msg,
  type
})

/** The issues of a label list: each label non-empty and at most `maxFieldLength` long. */
const labelIssues = (labels: ReadonlyArray<string>, loc: ReadonlyArray<string | number>): Array<LibraryIssue> =>
  labels.flatMap((label, i) =>
    label === "" || label.length > maxFieldLength
      ? [issue([...loc, i], `a label must have 1 to ${maxFieldLength} characters`)]
      : []
  )

const lengthIssue = (value: string | undefined, loc: ReadonlyArray<string | number>): Array<LibraryIssue> =>
  value !== undefined && value.length > maxFieldLength
    ? [issue(loc, `at most ${maxFieldLength} characters are accepted`)]
    : []

/** Whether a file's labels satisfy `labels` under `mode`; no labels (or none given) keep every file. */
export const labelsMatch = (
  fileLabels: ReadonlyArray<string>,
  labels: ReadonlyArray<string> | undefined,
  mode: LabelsFilterMode | undefined
): boolean => {
  if (labels === undefined || labels.length === 0) return true
  const has = new Set(fileLabels)
  return mode === "OR" ? labels.some((label) => has.has(label)) : labels.every((label) => has.has(label))
}

/** Whether a file passes a filter: each condition given holds. A path matches as a prefix. */
export const matches = (
  file: { readonly fileId: string; readonly labels: ReadonlyArray<string>; readonly path: string | undefined },
  filter: FileFilter
): boolean =>
  (filter.fileIds === undefined || filter.fileIds.length === 0 || filter.fileIds.includes(file.fileId)) &&
  labelsMatch(file.labels, filter.labels, filter.labelsFilterMode) &&
  (filter.labelsFilter === undefined || labelsFilterMatches(filter.labelsFilter, file.labels)) &&
  (filter.path === undefined || filter.path === "" || (file.path ?? "").startsWith(filter.path))

/** Filters of `list`: each one given must hold. */
export interface ListFilters {
  readonly name?: string | undefined
  readonly path?: string | undefined
  readonly status?: string | undefined
  readonly labels?: ReadonlyArray<string> | undefined
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}

/** A search: the query, the files it may look at (those any of `filters` allows), and how much it returns. */
export interface Search {
  readonly query: string
  readonly filters: ReadonlyArray<FileFilter>
  readonly maxSegments: number
  readonly strategy?: RetrievalStrategy | undefined
  readonly maxNeighbors?: number | undefined
  /** The least `score` a hit has, in [0, 1]. */
  readonly threshold?: number | undefined
}

/** A search request of `POST /library/search` as a `Search`. */
export const searchOf = (request: LibrarySearchRequest): Search => ({
  query: request.query,
  filters: [{
    fileIds: request.fileIds,
    labels: request.labels,
    labelsFilterMode: request.labels_filter_mode,
    labelsFilter: request.labels_filter,
    path: request.path
  }],
  maxSegments: request.maxSegments ?? 10,
  strategy: request.retrievalStrategy,
  maxNeighbors: request.maxNeighbors,
  threshold: request.retrievalSimilarityThreshold
})

/** A UUID's shape, as long as every id the library gives: what an answer's id takes is counted with it. */
const uuidShape = "00000000-0000-0000-0000-000000000000"

/** The most neighbours on each side a search adds to a segment. */
const maxNeighborsCap = 10

/** The `detail` of a 404 for a file. */
export const fileNotFound = (fileId: string): string => `File ${fileId} not found.`

/**
 * Makes a library. Writes cost the same whatever it holds, except an upload, which indexes its file
 * (linear in the file's size). `createdBy` is the identifier shown as every file's uploader.
 */
export const makeLibrary = (options: {
  readonly ids: Ids
  readonly limits?: LibraryLimits | undefined
  /** How long a file is `PROCESSING`, in milliseconds. */
  readonly processingDuration?: number | undefined
  /** The bytes every library of the service holds together; its own of `defaultMaxTotalLibraryBytes` if none. */
  readonly budget?: ByteBudget | undefined
}) => {
  const limits = options.limits ?? defaultLibraryLimits
  const budget = options.budget ?? makeByteBudget(defaultMaxTotalLibraryBytes)
  const processingDuration = options.processingDuration ?? defaultProcessingDuration
  const createdBy = options.ids.uuid()
  const files = new Map<string, StoredFile>()
  let storedBytes = 0
  /** How many files carry each label. */
  const labelCounts = new Map<string, number>()

  const countLabels = (labels: ReadonlyArray<string>, by: number) => {
    for (const label of new Set(labels)) {
      const count = (labelCounts.get(label) ?? 0) + by
      if (count === 0) labelCounts.delete(label)
      else labelCounts.set(label, count)
    }
  }

  /** The issue of labels that would take the library past `maxLibraryLabels` distinct labels. */
  const labelBudgetIssues = (
    labels: ReadonlyArray<string>,
    replacing: ReadonlyArray<string>,
    loc: ReadonlyArray<string | number>
  ): Array<LibraryIssue> => {
    const after = new Set(labelCounts.keys())
    for (const label of replacing) if (labelCounts.get(label) === 1) after.delete(label)
    for (const label of labels) after.add(label)
    return after.size > maxLibraryLabels
      ? [issue(loc, `a library holds at most ${maxLibraryLabels} distinct labels; ${labelCounts.size} are in use`)]
      : []
  }

  const statusOf = (file: StoredFile, now: number): string =>
    now - file.createdAt < processingDuration
      ? "PROCESSING"
      : file.failure === undefined
      ? "PROCESSED"
      : "PROCESSING_FAILED"

  /** A file as the service shows it at `now`. */
  const view = (file: StoredFile, now: number): Record<string, unknown> => {
    const status = statusOf(file, now)
    return {
      fileId: file.fileId,
      name: file.name,
      fileType: file.fileType,
      sizeBytes: file.sizeBytes,
      createdBy,
      creationDate: dayOf(file.createdAt),
      lastUpdated: dayOf(file.updatedAt),
      status,
      path: file.path ?? null,
      labels: [...file.labels],
      publicUrl: file.publicUrl ?? null,
      ...(file.dataSource === undefined ? {} : { dataSource: file.dataSource }),
      ...(file.batchId === undefined ? {} : { batchId: file.batchId }),
      ...(status === "PROCESSING_FAILED" ? { errorCode: 422, errorMessage: file.failure } : {})
    }
  }

  /** Stores a file uploaded at `now`, indexed at once (it is shown `PROCESSING` for a while all the same). */
  const upload = (input: Upload, now: number): Write<{ readonly fileId: string }> => {
    if (input.bytes.length > limits.maxFileBytes) {
      return {
        _tag: "TooLarge",
        message: `The file is ${input.bytes.length} bytes; the largest file accepted is ${limits.maxFileBytes} bytes.`
      }
    }
    if (files.size >= limits.maxFiles) {
      return { _tag: "TooLarge", message: `The library is full: it holds at most ${limits.maxFiles} files.` }
    }
    if (storedBytes + input.bytes.length > limits.maxLibraryBytes) {
      return {
        _tag: "TooLarge",
        message: `The library is full: it holds at most ${limits.maxLibraryBytes} bytes, and ${storedBytes} are used.`
      }
    }
    const fileType = fileTypeOf(input.name)
    const labels = [...new Set(input.labels ?? [])]
    const issues = [
      ...(input.name === "" || input.name.length > maxFieldLength
        ? [issue(["body", "file"], `the file name must have 1 to ${maxFieldLength} characters`)]
        : []),
      ...(fileType === undefined
        ? [
          issue(
            ["body", "file"],
            `unsupported file type: the name must end in .${
              [...indexedFileTypes, "htm", "markdown", ...storedFileTypes].join(", .")
            }`
          )
        ]
        : []),
      ...labelIssues(labels, ["body", "labels"]),
      ...labelBudgetIssues(labels, [], ["body", "labels"]),
      ...lengthIssue(input.path, ["body", "path"]),
      ...lengthIssue(input.publicUrl, ["body", "publicUrl"]),
      ...lengthIssue(input.dataSource, ["body", "data_source"])
    ]
    if (issues.length > 0) return { _tag: "Invalid", issues }
    let segments: ReadonlyArray<Segment> = []
    let failure: string | undefined
    if ((indexedFileTypes as ReadonlyArray<string>).includes(fileType!)) {
      const text = textOf(fileType as IndexedFileType, decoder.decode(input.bytes))
      if (text === undefined) failure = `The file is not valid ${fileType!.toUpperCase()}.`
      else segments = segmentsOf(text).map((segment) => ({ text: segment, ...Bm25.index(segment) }))
    } else {
      failure = `The reference service does not extract the text of ${fileType!.toUpperCase()} files.`
    }
    const heldBytes = heldBytesOf(input.bytes.length, segments)
    if (storedBytes + heldBytes > limits.maxLibraryBytes) {
      return {
        _tag: "TooLarge",
        message:
          `The library is full: it holds at most ${limits.maxLibraryBytes} bytes of files and their index, ${storedBytes} are used, and this file takes ${heldBytes} with its index.`
      }
    }
    if (!budget.take(heldBytes)) {
      return {
        _tag: "TooLarge",
        message:
          `The service is full: every library together holds at most ${budget.limit} bytes of files and their index (maxTotalLibraryBytes), ${budget.held()} are used, and this file takes ${heldBytes} with its index.`
      }
    }
    const fileId = options.ids.uuid()
    files.set(fileId, {
      fileId,
      name: input.name,
      fileType: fileType!,
      sizeBytes: input.bytes.length,
      path: input.path,
      labels,
      publicUrl: input.publicUrl,
      batchId: input.batchId,
      dataSource: input.dataSource,
      bytes: input.bytes,
      createdAt: now,
      updatedAt: now,
      segments,
      heldBytes,
      failure
    })
    storedBytes += heldBytes
    countLabels(labels, 1)
    return { _tag: "Done", value: { fileId } }
  }

  /** A file as shown at `now`, or `undefined` when the library has none with this id. */
  const lookup = (fileId: string, now: number): Record<string, unknown> | undefined => {
    const file = files.get(fileId)
    return file === undefined ? undefined : view(file, now)
  }

  /** The files that pass every filter given, in upload order, from `offset`, at most `limit`. */
  const list = (filters: ListFilters, now: number): Array<Record<string, unknown>> => {
    const out: Array<Record<string, unknown>> = []
    let skipped = 0
    const offset = filters.offset ?? 0
    const limit = filters.limit ?? files.size
    for (const file of files.values()) {
      if (out.length >= limit) break
      if (filters.name !== undefined && file.name !== filters.name) continue
      if (!matches(file, { labels: filters.labels, path: filters.path })) continue
      if (filters.status !== undefined && statusOf(file, now) !== filters.status) continue
      if (skipped < offset) {
        skipped++
        continue
      }
      out.push(view(file, now))
    }
    return out
  }

  /** Replaces a file's labels and public URL, those given. `undefined` when there is no such file. */
  const update = (
    fileId: string,
    changes: { readonly labels?: ReadonlyArray<string> | undefined; readonly publicUrl?: string | undefined },
    now: number
  ): Write<Record<string, unknown>> | undefined => {
    const file = files.get(fileId)
    if (file === undefined) return undefined
    const labels = changes.labels === undefined ? undefined : [...new Set(changes.labels)]
    const issues = [
      ...(labels === undefined
        ? []
        : [...labelIssues(labels, ["body", "labels"]), ...labelBudgetIssues(labels, file.labels, ["body", "labels"])]),
      ...lengthIssue(changes.publicUrl, ["body", "publicUrl"])
    ]
    if (issues.length > 0) return { _tag: "Invalid", issues }
    if (labels !== undefined) {
      countLabels(file.labels, -1)
      countLabels(labels, 1)
      file.labels = labels
    }
    if (changes.publicUrl !== undefined) file.publicUrl = changes.publicUrl
    file.updatedAt = now
    return { _tag: "Done", value: view(file, now) }
  }

  /**
   * Deletes a file. `NotFound` when there is none; `Processing` while it is `PROCESSING`, which the real
   * service refuses too.
   */
  const remove = (fileId: string, now: number): "Deleted" | "NotFound" | "Processing" => {
    const file = files.get(fileId)
    if (file === undefined) return "NotFound"
    if (statusOf(file, now) === "PROCESSING") return "Processing"
    files.delete(fileId)
    storedBytes -= file.heldBytes
    budget.give(file.heldBytes)
    countLabels(file.labels, -1)
    return "Deleted"
  }

  /** Forgets every file, giving their bytes back to the shared budget (its tenant is forgotten). */
  const clear = (): void => {
    budget.give(storedBytes)
    storedBytes = 0
    files.clear()
    labelCounts.clear()
  }

  /** The segments whose text a hit shows, as the strategy says, in the file's order. */
  const piecesFor = (file: StoredFile, order: number, search: Search): ReadonlyArray<Segment> => {
    switch (search.strategy) {
      case "full_doc":
        return file.segments
      case "add_neighbors": {
        const n = Math.max(0, Math.min(maxNeighborsCap, search.maxNeighbors ?? 1))
        return file.segments.slice(Math.max(0, order - n), order + n + 1)
      }
      default:
        return file.segments.slice(order, order + 1)
    }
  }

  /**
   * The segments of the processed files one of the filters allows that share a term with the query, best first
   * (ties in upload order, then in the file's order), at most `maxSegments`, each at least `threshold`; with
   * `full_doc`, only the best segment of each file (a hit shows the whole file). The hits' texts hold at most
   * `maxSearchAnswerBytes` bytes of JSON together with the rest of the answer: a text past it is cut, the
   * hits after it left out, and the result says `truncated`. It runs in steps (`Bm25.scoring`); the files it
   * looks at are those of its start.
   */
  const searchHits = (search: Search, now: number): Steps<Found> => {
    const candidates: Array<{ file: StoredFile; order: number }> = []
    const indexed: Array<Bm25.IndexedText> = []
    for (const file of files.values()) {
      if (statusOf(file, now) !== "PROCESSED" || !search.filters.some((filter) => matches(file, filter))) continue
      file.segments.forEach((segment, order) => {
        candidates.push({ file, order })
        indexed.push(segment)
      })
    }
    const scoring = Bm25.scoring(search.query, indexed)
    const result = (): Found => {
      const scores = scoring.result()
      const wanted = Math.max(0, search.maxSegments)
      const threshold = search.threshold ?? 0
      // the best `wanted` candidates, best first, ties in the candidates' order
      const best: Array<number> = []
      const better = (i: number, j: number) => scores[i]! > scores[j]! || (scores[i] === scores[j] && i < j)
      const offer = (i: number) => {
        if (wanted === 0 || (best.length === wanted && !better(i, best[wanted - 1]!))) return
        let low = 0
        let high = best.length
        while (low < high) {
          const middle = (low + high) >>> 1
          if (better(best[middle]!, i)) low = middle + 1
          else high = middle
        }
        best.splice(low, 0, i)
        if (best.length > wanted) best.pop()
      }
      // with full_doc, a file's best segment stands for it (a file's candidates are next to each other)
      let fileBest: number | undefined
      for (let i = 0; i < candidates.length; i++) {
        const score = scores[i]!
        if (score <= 0 || Bm25.similarity(score) < threshold) continue
        if (search.strategy !== "full_doc") offer(i)
        else if (fileBest !== undefined && candidates[fileBest]!.file !== candidates[i]!.file) {
          offer(fileBest)
          fileBest = i
        } else if (fileBest === undefined || scores[i]! > scores[fileBest]!) fileBest = i
      }
      if (fileBest !== undefined) offer(fileBest)
      return hitsWithin(best.map((i) => ({ ...candidates[i]!, score: scores[i]! })), search)
    }
    return { next: scoring.next, result }
  }

  /** The hits of ranked candidates, their texts within `maxSearchAnswerBytes` with the answer around them. */
  const hitsWithin = (
    ranked: ReadonlyArray<{ readonly file: StoredFile; readonly order: number; readonly score: number }>,
    search: Search
  ): Found => {
    // the answer without results: its id (a UUID) and `truncated`, counted whether or not it is written
    let room = limits.maxSearchAnswerBytes - jsonBytes({ id: uuidShape, results: [], truncated: true })
    const hits: Array<Hit> = []
    for (const { file, order, score } of ranked) {
      const hit: Hit = {
        text: "",
        fileId: file.fileId,
        fileName: file.name,
        score: Bm25.similarity(score),
        order,
        publicUrl: file.publicUrl ?? null,
        labels: [...file.labels]
      }
      room -= jsonBytes(hit) + (hits.length === 0 ? 0 : 1)
      if (room < 0) return { hits, truncated: true }
      const bounded: BoundedText = joinWithin(
        piecesFor(file, order, search).map((segment) => segment.text),
        "\n\n",
        room
      )
      if (bounded.text !== "") hits.push({ ...hit, text: bounded.text })
      if (bounded.cut) return { hits, truncated: true }
      room -= bounded.bytes
    }
    return { hits, truncated: false }
  }

  /** The answer of `POST /library/search`, in steps: `truncated` is there only when the answer was cut. */
  const search = (request: LibrarySearchRequest, now: number): Steps<Record<string, unknown>> => {
    const found = searchHits(searchOf(request), now)
    return {
      next: found.next,
      result: () => {
        const { hits, truncated } = found.result()
        return { id: options.ids.uuid(), results: hits, ...(truncated ? { truncated } : {}) }
      }
    }
  }

  /** A file's bytes as uploaded, with its name and type, or `undefined` when there is no such file. */
  const download = (fileId: string): Download | undefined => {
    const file = files.get(fileId)
    return file === undefined
      ? undefined
      : { name: file.name, contentType: contentTypeOf(file.fileType), bytes: file.bytes }
  }

  /**
   * The text the library extracted from a file and its segments, as `GET .../parsed` answers it: `NotFound`
   * when there is no such file, `NotReady` (with why) while it is `PROCESSING` or when its text could not
   * be read.
   */
  const parsed = (fileId: string, now: number): Parsed => {
    const file = files.get(fileId)
    if (file === undefined) return { _tag: "NotFound" }
    const status = statusOf(file, now)
    if (status === "PROCESSING") {
      return { _tag: "NotReady", message: "The file is PROCESSING: its parsed text is ready once it is PROCESSED." }
    }
    if (file.failure !== undefined) return { _tag: "NotReady", message: file.failure }
    return {
      _tag: "Parsed",
      value: {
        fileId: file.fileId,
        name: file.name,
        fileType: file.fileType,
        text: file.segments.map((segment) => segment.text).join("\n\n"),
        segments: file.segments.map((segment, order) => ({ order, text: segment.text }))
      }
    }
  }

  /** The status counts of the files of a batch, or `undefined` when no file was uploaded in it. */
  const batchStatus = (batchId: string, now: number): Record<string, unknown> | undefined => {
    const counts = new Map<string, number>()
    let total = 0
    for (const file of files.values()) {
      if (file.batchId !== batchId) continue
      total++
      const status = statusOf(file, now)
      counts.set(status, (counts.get(status) ?? 0) + 1)
    }
    return total === 0
      ? undefined
      : {
        batch_id: batchId,
        total_documents: total,
        statuses: [...counts].map(([status, count]) => ({ status, count }))
      }
  }

  return { upload, lookup, list, update, remove, clear, search, searchHits, batchStatus, download, parsed }
}

/** A library: its files and what can be done with them. */
export type Library = ReturnType<typeof makeLibrary>
