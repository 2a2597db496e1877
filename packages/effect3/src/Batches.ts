/**
 * The Batch API (Beta): `create` a batch from a JSONL file of chat requests (one a line, each with its
 * `custom_id`), `retrieve` it, `list` the batches (or `stream` them all, page by page), `cancel` one, and
 * read its `results` (the answers of the requests that succeeded, or of those that failed), as the official
 * Python SDK's `beta.batches` calls `/studio/v1/batches`.
 *
 * @since 0.1.0
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import {
  batchesListQuery,
  batchForm,
  batchIssueMessage,
  batchPageLimits,
  batchResultsQuery,
  checkBatchFile,
  defaultBatchFileBounds
} from "studio-effect-core/wire/batches"
import { endpointPath, endpoints } from "studio-effect-core/wire/endpoints"
import {
  Batch,
  type BatchEndpoint,
  BatchList,
  BatchResults,
  BatchResultsRequest,
  CreateBatchFields,
  ListBatchesRequest
} from "./BatchSchema.js"
import type { RawBody } from "./internal/http/request.js"
import * as Operation from "./internal/operation/operation.js"
import { requestValidator } from "./internal/schema/validate.js"
import { type FileSource, readSource, requestRefusal } from "./internal/upload/fileSource.js"
import type { StudioClient, WithResponse } from "./StudioClient.js"
import type { RequestError } from "./StudioError.js"

/**
 * The largest file `create` sends when no `maxFileSize` is given: 64 MiB.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxFileSize = defaultBatchFileBounds.maxFileBytes

/**
 * What `create` sends: the JSONL file (a local path, its bytes, a `Blob` or a byte `Stream`), the endpoint
 * each line is a request for (chat completions, the default), metadata kept with the batch, the file's name
 * (by default the path's last part, the `File`'s name, or `file.txt`), and the largest file sent.
 *
 * @since 0.1.0
 * @category models
 */
export interface CreateBatchOptions<E = never, R = never> {
  readonly file: FileSource<E, R>
  readonly endpoint?: BatchEndpoint | undefined
  readonly metadata?: Readonly<Record<string, string>> | undefined
  readonly name?: string | undefined
  /** The largest file sent, in bytes (default 64 MiB); a stream is read no further than this. */
  readonly maxFileSize?: number | undefined
}

const createOperation = Operation.json({
  endpoint: endpoints.batchesCreate,
  check: (_operation, form: RawBody & { readonly endpoint: string }) => Effect.succeed(form),
  raw: (form) => form,
  response: Batch
})

const validateFields = requestValidator(CreateBatchFields)
const operation = endpoints.batchesCreate.name

/** The form of a create, its file read and checked line by line first: nothing is sent when a rule breaks. */
const formOf = <E, R>(
  options: CreateBatchOptions<E, R>
): Effect.Effect<RawBody & { readonly endpoint: string }, RequestError | E, R | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const { endpoint = "/v1/chat/completions", file, maxFileSize, metadata, name } = options
    const limit = maxFileSize ?? defaultMaxFileSize
    if (!(Number.isSafeInteger(limit) && limit >= 1)) {
      return yield* requestRefusal(operation, "maxFileSize", `${limit} is not a size: use a whole number of bytes`)
    }
    const fields = yield* validateFields(operation, { endpoint, metadata })
    const source = yield* readSource(operation, file, limit)
    const text = yield* Effect.tryPromise({
      try: async () => new TextDecoder("utf-8", { fatal: true }).decode(await source.blob.arrayBuffer()),
      catch: () => requestRefusal(operation, "file", "the file is not UTF-8 text: send JSON Lines")
    })
    const checked = checkBatchFile(text, fields.endpoint, defaultBatchFileBounds)
    if (checked._tag === "Invalid") {
      return yield* requestRefusal(operation, "file", checked.issues.map(batchIssueMessage).join("; "))
    }
    const form = yield* Effect.promise(() => batchForm(source.blob, name ?? source.name, fields))
    return { ...form, endpoint: fields.endpoint }
  })

/**
 * Creates a batch: every line of its JSONL file is a chat request for `endpoint` with its `custom_id`
 * (`{"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions", "body": {...}}`). The file is read
 * (up to `maxFileSize` bytes, 64 MiB by default) and checked first: a file too large, unreadable, not JSON
 * Lines, or with a line that breaks a rule (no `custom_id`, one used twice, another `url`, no `body`, more
 * than 10,000 lines) fails with `ValidationError` and nothing is sent. A path is read with Effect's
 * `FileSystem`. The batch is `PENDING` until the service runs it.
 *
 * @since 0.1.0
 * @category operations
 */
export const create: {
  (options: CreateBatchOptions & { readonly file: string }): Effect.Effect<
    Batch,
    RequestError,
    StudioClient | FileSystem.FileSystem
  >
  <E = never, R = never>(
    options: CreateBatchOptions<E, R> & { readonly file: Uint8Array | Blob | Stream.Stream<Uint8Array, E, R> }
  ): Effect.Effect<Batch, RequestError | E, StudioClient | R>
} = (options: CreateBatchOptions<any, any>): Effect.Effect<any, any, any> =>
  Effect.flatMap(formOf(options), createOperation)

/**
 * `create`, with the answer's status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const createWithResponse: {
  (options: CreateBatchOptions & { readonly file: string }): Effect.Effect<
    WithResponse<Batch>,
    RequestError,
    StudioClient | FileSystem.FileSystem
  >
  <E = never, R = never>(
    options: CreateBatchOptions<E, R> & { readonly file: Uint8Array | Blob | Stream.Stream<Uint8Array, E, R> }
  ): Effect.Effect<WithResponse<Batch>, RequestError | E, StudioClient | R>
} = (options: CreateBatchOptions<any, any>): Effect.Effect<any, any, any> =>
  Effect.flatMap(formOf(options), createOperation.withResponse)

const retrieveOperation = Operation.json({
  endpoint: endpoints.batchesRetrieve,
  check: Operation.checkId("batchId"),
  response: Batch
})

/**
 * Retrieves a batch: its status and how many of its requests have succeeded or failed. An unknown id
 * fails with `NotFound`.
 *
 * @since 0.1.0
 * @category operations
 */
export const retrieve: (batchId: string) => Effect.Effect<Batch, RequestError, StudioClient> = retrieveOperation

/**
 * `retrieve`, with the answer's status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const retrieveWithResponse: (
  batchId: string
) => Effect.Effect<WithResponse<Batch>, RequestError, StudioClient> = retrieveOperation.withResponse

const listOperation = Operation.json({
  endpoint: endpoints.batchesList,
  check: Operation.checkRequest(ListBatchesRequest),
  path: (valid) => endpointPath(endpoints.batchesList, undefined, batchesListQuery(valid)),
  response: BatchList
})

/**
 * A page of batches, the newest first: those after the batch `after` (the id of the last batch of the page
 * before), at most `limit` (1 to 100; the service's default is 20).
 *
 * @since 0.1.0
 * @category operations
 */
export const list = (request: ListBatchesRequest = {}): Effect.Effect<BatchList, RequestError, StudioClient> =>
  listOperation(request)

/**
 * `list`, with the answer's status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const listWithResponse = (
  request: ListBatchesRequest = {}
): Effect.Effect<WithResponse<BatchList>, RequestError, StudioClient> => listOperation.withResponse(request)

/**
 * Every batch (after `after`, when given), as a `Stream` that lists them a page (`pageSize`, default 20) at
 * a time, each page after the last batch of the one before, until a page comes back short.
 *
 * @since 0.1.0
 * @category operations
 */
export const stream = (
  request: { readonly after?: string | undefined; readonly pageSize?: number | undefined } = {}
): Stream.Stream<Batch, RequestError, StudioClient> => {
  const { after, pageSize = batchPageLimits.default } = request
  return Stream.paginateChunkEffect(after, (cursor: string | undefined) =>
    Effect.map(
      list({ after: cursor, limit: pageSize }),
      (page) =>
        [
          Chunk.fromIterable(page),
          page.length < pageSize ? Option.none<string | undefined>() : Option.some(page.at(-1)!.id)
        ] as const
    ))
}

const cancelOperation = Operation.json({
  endpoint: endpoints.batchesCancel,
  check: Operation.checkId("batchId"),
  response: Batch
})

/**
 * Cancels a batch: it becomes `CANCELLED` and its requests not yet run are never run (those already run
 * keep their results). An unknown id fails with `NotFound`; a batch that has finished cannot be cancelled
 * (the service answers 400, a `ValidationError`).
 *
 * @since 0.1.0
 * @category operations
 */
export const cancel: (batchId: string) => Effect.Effect<Batch, RequestError, StudioClient> = cancelOperation

/**
 * `cancel`, with the answer's status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const cancelWithResponse: (
  batchId: string
) => Effect.Effect<WithResponse<Batch>, RequestError, StudioClient> = cancelOperation.withResponse

const resultsOperation = Operation.json({
  endpoint: endpoints.batchesResults,
  check: Operation.checkIdAndRequest("batchId", BatchResultsRequest),
  path: (valid) => endpointPath(endpoints.batchesResults, valid.segment, batchResultsQuery(valid.request)),
  response: BatchResults,
  lines: true
})

/**
 * The results of a batch, one `BatchResult` a request in the order they ran: the `output` file (the
 * answers of the requests that succeeded, each a chat completion in `response.body`; the default) or the
 * `error` file (the requests the service refused, with their `error`). The service sends them as JSON Lines,
 * read up to the client's `maxResponseSize`. Before the batch has finished the service refuses them (a
 * `ValidationError`) unless `force` is set. An unknown id fails with `NotFound`.
 *
 * @since 0.1.0
 * @category operations
 */
export const results = (
  batchId: string,
  request: BatchResultsRequest = {}
): Effect.Effect<BatchResults, RequestError, StudioClient> => resultsOperation({ id: batchId, request })

/**
 * `results`, with the answer's status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const resultsWithResponse = (
  batchId: string,
  request: BatchResultsRequest = {}
): Effect.Effect<WithResponse<BatchResults>, RequestError, StudioClient> =>
  resultsOperation.withResponse({ id: batchId, request })
