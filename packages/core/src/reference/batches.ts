/**
 * Batches of the reference service. A batch is `PENDING` for a while after it is created, then
 * `PROCESSING`, one line after another, each line taking the same time, and `COMPLETED` once every line has
 * run; a cancel makes it `CANCELLED` and its lines not yet run are never run. The time is the caller's (its
 * clock), given on every call, so nothing sleeps: the caller asks which lines are `due` by now, runs each
 * through its model and `record`s what it answered. The store keeps at most `maxBatches` batches and
 * `maxBatchesSize` characters of their files (requests and results), evicting the oldest first.
 *
 * @since 0.1.0
 */
import type { BatchFileType, BatchLine, BatchStatus } from "../wire/batches.js"
import { basePath } from "../wire/endpoints.js"
import type { Ids } from "./ids.js"

/**
 * The limits of a store of batches.
 *
 * @since 0.1.0
 * @category models
 */
export interface BatchStoreLimits {
  /** The most batches kept; a new one evicts the oldest. */
  readonly maxBatches: number
  /** The most characters of batch files kept, requests and results of all batches together. */
  readonly maxBatchesSize: number
}

/**
 * The limits of a store of batches when none are given: 100 batches, 64 Mi characters.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultBatchStoreLimits: BatchStoreLimits = { maxBatches: 100, maxBatchesSize: 64 * 1024 * 1024 }

/**
 * How long a batch waits before it runs, and how long each line takes, in milliseconds.
 *
 * @since 0.1.0
 * @category models
 */
export interface BatchTiming {
  readonly pendingDuration: number
  readonly lineDuration: number
}

/**
 * The timing of batches when none is given: 1 s pending, 200 ms a line.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultBatchTiming: BatchTiming = { pendingDuration: 1000, lineDuration: 200 }

/**
 * What running one line came to: the answer of its endpoint, or the status and body of its refusal.
 *
 * @since 0.1.0
 * @category models
 */
export type LineOutcome =
  | { readonly _tag: "Answered"; readonly body: unknown }
  | { readonly _tag: "Refused"; readonly status: number; readonly message: string; readonly body: unknown }

/**
 * A batch as the service shows it.
 *
 * @since 0.1.0
 * @category models
 */
export interface BatchView {
  readonly id: string
  readonly status: BatchStatus
  readonly endpoint: string
  readonly created_at: number
  readonly completed_at: number | null
  readonly cancelled_at: number | null
  readonly request_counts: { readonly total: number; readonly completed: number; readonly failed: number }
  readonly metadata: Readonly<Record<string, string>> | null
  readonly output_file: string | null
  readonly error_file: string | null
}

interface StoredBatch {
  readonly id: string
  readonly endpoint: string
  readonly metadata: Readonly<Record<string, string>> | undefined
  readonly createdAt: number
  readonly lines: ReadonlyArray<BatchLine>
  /** Lines handed out to run: those before it are run or running, those after it never were. */
  claimed: number
  cancelledAt: number | undefined
  readonly output: Array<string>
  readonly errors: Array<string>
  /** Characters of its requests and results. */
  size: number
}

/**
 * A create refused: the batch alone is larger than the store keeps.
 *
 * @since 0.1.0
 * @category models
 */
export interface BatchTooLarge {
  readonly _tag: "TooLarge"
  readonly message: string
}

/**
 * What a cancel came to: the batch cancelled, or already finished (its status).
 *
 * @since 0.1.0
 * @category models
 */
export type CancelOutcome =
  | { readonly _tag: "Cancelled"; readonly batch: BatchView }
  | { readonly _tag: "Finished"; readonly status: BatchStatus }

/**
 * What a read of results came to: the file's text (JSON Lines), or the batch's status when it has not
 * finished and the read was not forced.
 *
 * @since 0.1.0
 * @category models
 */
export type ResultsOutcome =
  | { readonly _tag: "Results"; readonly text: string }
  | { readonly _tag: "Unfinished"; readonly status: BatchStatus }

/**
 * The detail of a batch the store does not hold.
 *
 * @since 0.1.0
 * @category messages
 */
export const batchNotFound = (id: string): string => `Batch ${id} not found`

const seconds = (millis: number): number => Math.floor(millis / 1000)

/**
 * The store of one tenant's batches.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeBatchStore = (options: {
  readonly ids: Ids
  readonly limits?: BatchStoreLimits | undefined
  readonly timing?: BatchTiming | undefined
}) => {
  const limits = options.limits ?? defaultBatchStoreLimits
  const timing = options.timing ?? defaultBatchTiming
  /** In creation order: the oldest first. */
  const batches = new Map<string, StoredBatch>()
  let storedSize = 0

  const startOf = (batch: StoredBatch) => batch.createdAt + timing.pendingDuration
  /** How many lines are due to have run by `now` (all at once when a line takes no time). */
  const dueCount = (batch: StoredBatch, now: number): number => {
    if (now < startOf(batch)) return 0
    if (timing.lineDuration <= 0) return batch.lines.length
    return Math.min(batch.lines.length, Math.floor((now - startOf(batch)) / timing.lineDuration))
  }
  const recorded = (batch: StoredBatch) => batch.output.length + batch.errors.length
  const isDone = (batch: StoredBatch) => recorded(batch) === batch.lines.length

  const statusOf = (batch: StoredBatch, now: number): BatchStatus =>
    batch.cancelledAt !== undefined
      ? "CANCELLED"
      : isDone(batch)
      ? "COMPLETED"
      : now < startOf(batch) && batch.claimed === 0
      ? "PENDING"
      : "PROCESSING"

  const resultsPath = (batch: StoredBatch, fileType: BatchFileType) =>
    `${basePath}/batches/${encodeURIComponent(batch.id)}/results?file_type=${fileType}`

  const view = (batch: StoredBatch, now: number): BatchView => {
    const status = statusOf(batch, now)
    const finished = status === "COMPLETED" || status === "CANCELLED"
    return {
      id: batch.id,
      status,
      endpoint: batch.endpoint,
      created_at: seconds(batch.createdAt),
      completed_at: status === "COMPLETED"
        ? seconds(startOf(batch) + Math.max(0, timing.lineDuration) * batch.lines.length)
        : null,
      cancelled_at: batch.cancelledAt === undefined ? null : seconds(batch.cancelledAt),
      request_counts: { total: batch.lines.length, completed: batch.output.length, failed: batch.errors.length },
      metadata: batch.metadata ?? null,
      output_file: finished && batch.output.length > 0 ? resultsPath(batch, "output") : null,
      error_file: finished && batch.errors.length > 0 ? resultsPath(batch, "error") : null
    }
  }

  /** Evicts the oldest batches but `keep` until `extra` more characters fit. */
  const makeRoom = (extra: number, keep?: StoredBatch) => {
    for (const oldest of batches.values()) {
      if (storedSize + extra <= limits.maxBatchesSize) return
      if (oldest === keep) continue
      batches.delete(oldest.id)
      storedSize -= oldest.size
    }
  }

  return {
    /** Stores a new batch of checked lines (`size`: the characters of its file), `PENDING` from `now`. */
    create: (
      batch: {
        readonly endpoint: string
        readonly metadata?: Readonly<Record<string, string>> | undefined
        readonly lines: ReadonlyArray<BatchLine>
        readonly size: number
      },
      now: number
    ): BatchView | BatchTooLarge => {
      if (batch.size > limits.maxBatchesSize) {
        return {
          _tag: "TooLarge",
          message: `The batch's file is larger than the ${limits.maxBatchesSize} characters of batches kept.`
        }
      }
      while (batches.size >= limits.maxBatches) {
        const oldest = batches.values().next().value!
        batches.delete(oldest.id)
        storedSize -= oldest.size
      }
      makeRoom(batch.size)
      const stored: StoredBatch = {
        id: options.ids.uuid(),
        endpoint: batch.endpoint,
        metadata: batch.metadata,
        createdAt: now,
        lines: batch.lines,
        claimed: 0,
        cancelledAt: undefined,
        output: [],
        errors: [],
        size: batch.size
      }
      batches.set(stored.id, stored)
      storedSize += stored.size
      return view(stored, now)
    },

    /** The batch as at `now`, or `undefined` when it is not held. */
    retrieve: (id: string, now: number): BatchView | undefined => {
      const batch = batches.get(id)
      return batch === undefined ? undefined : view(batch, now)
    },

    /**
     * The lines of the batch due to run by `now` and not handed out yet, handed out now (each once): the
     * caller runs each and `record`s its outcome.
     */
    due: (id: string, now: number): ReadonlyArray<{ readonly index: number; readonly line: BatchLine }> => {
      const batch = batches.get(id)
      if (batch === undefined || batch.cancelledAt !== undefined) return []
      const due = dueCount(batch, now)
      const lines: Array<{ readonly index: number; readonly line: BatchLine }> = []
      for (let index = batch.claimed; index < due; index++) lines.push({ index, line: batch.lines[index]! })
      batch.claimed = Math.max(batch.claimed, due)
      return lines
    },

    /** Keeps what a line handed out by `due` came to, in its file of results. */
    record: (id: string, index: number, outcome: LineOutcome): void => {
      const batch = batches.get(id)
      if (batch === undefined) return
      const line = batch.lines[index]!
      const resultId = `batch_req_${options.ids.uuid().replaceAll("-", "")}`
      const text = outcome._tag === "Answered"
        ? JSON.stringify({
          id: resultId,
          custom_id: line.customId,
          response: { status_code: 200, body: outcome.body },
          error: null
        })
        : JSON.stringify({
          id: resultId,
          custom_id: line.customId,
          response: { status_code: outcome.status, body: outcome.body },
          error: { code: String(outcome.status), message: outcome.message }
        })
      makeRoom(text.length + 1, batch)
      ;(outcome._tag === "Answered" ? batch.output : batch.errors).push(text)
      batch.size += text.length + 1
      storedSize += text.length + 1
    },

    /** Cancels the batch at `now`: its lines not handed out yet never run. */
    cancel: (id: string, now: number): CancelOutcome | undefined => {
      const batch = batches.get(id)
      if (batch === undefined) return undefined
      const status = statusOf(batch, now)
      if (status === "COMPLETED" || status === "CANCELLED") return { _tag: "Finished", status }
      batch.cancelledAt = now
      return { _tag: "Cancelled", batch: view(batch, now) }
    },

    /**
     * A page of batches, the newest first: those after the batch `after` (all when not given; none when it
     * is not held), at most `limit`.
     */
    list: (page: { readonly after?: string | undefined; readonly limit: number }, now: number) => {
      const newestFirst = [...batches.values()].reverse()
      const start = page.after === undefined ? 0 : newestFirst.findIndex((batch) => batch.id === page.after) + 1
      if (start === 0 && page.after !== undefined) return []
      return newestFirst.slice(start, start + page.limit).map((batch) => view(batch, now))
    },

    /** A file of results as JSON Lines, once the batch has finished or when `force` reads it before. */
    results: (id: string, fileType: BatchFileType, force: boolean, now: number): ResultsOutcome | undefined => {
      const batch = batches.get(id)
      if (batch === undefined) return undefined
      const status = statusOf(batch, now)
      if (!force && status !== "COMPLETED" && status !== "CANCELLED") return { _tag: "Unfinished", status }
      const lines = fileType === "output" ? batch.output : batch.errors
      return { _tag: "Results", text: lines.map((line) => `${line}\n`).join("") }
    },

    /** How many batches are held, and how many characters. */
    size: () => ({ batches: batches.size, characters: storedSize })
  }
}

/**
 * The batches of one tenant.
 *
 * @since 0.1.0
 * @category models
 */
export type BatchStore = ReturnType<typeof makeBatchStore>

/**
 * The detail of results asked for before a batch has finished.
 *
 * @since 0.1.0
 * @category messages
 */
export const unfinishedDetail = (id: string, status: BatchStatus): string =>
  `Batch ${id} is ${status}: its results are ready once it has finished (or read them so far with force=true)`

/**
 * The detail of a cancel of a batch that has finished.
 *
 * @since 0.1.0
 * @category messages
 */
export const finishedDetail = (id: string, status: BatchStatus): string =>
  `Batch ${id} is ${status} and cannot be cancelled`
