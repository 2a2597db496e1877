/**
 * The library of files that a run's `file_search` tool searches: `upload` a file (from a path, bytes, a
 * `Blob` or a byte `Stream`, which is sent as it is read) with its path, labels and public URL, `list` the
 * files (or `stream` them all, page by page), `retrieve`, `update` and `delete` one, `download` its bytes
 * (a `Stream`, or whole with `downloadBytes`), read the text the service extracted (`parsed`), `search`
 * their segments, and read the status of a batch upload (`batchStatus`). Each operation has a `…WithResponse` variant that gives its value
 * with the answer's status, headers, request id and rate-limit figures (`uploadWithResponse`, `listWithResponse`, ...).
 *
 * @since 0.1.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { concatBytes } from "studio-effect-core/bytes/concatBytes"
import { endpointPath, endpoints, libraryListQuery } from "studio-effect-core/wire/endpoints"
import { defaultFileName, formBoundary, streamedUploadForm, uploadForm } from "studio-effect-core/wire/libraryUpload"
import type { RawBody } from "./internal/http/request.js"
import * as Operation from "./internal/operation/operation.js"
import { requestValidator } from "./internal/schema/validate.js"
import * as Internal from "./internal/upload/fileSource.js"
import { readSource, requestRefusal, tooLarge } from "./internal/upload/fileSource.js"
import {
  BatchStatus,
  LibraryFile,
  LibraryFiles,
  LibrarySearchRequest,
  LibrarySearchResponse,
  ListFilesRequest,
  ParsedFile,
  UpdateFileRequest,
  UploadedFile,
  UploadFields
} from "./LibrarySchema.js"
import { StudioClient, type WithResponse } from "./StudioClient.js"
import type { RequestError, ValidationError } from "./StudioError.js"

/**
 * The largest file `upload` sends when no `maxUploadSize` is given: 64 MiB.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxUploadSize = 64 * 1024 * 1024

/**
 * A file to upload: the path of a local file (read with Effect's `FileSystem`), its bytes, a `Blob` (or a
 * `File`, whose name is used), or a stream of its bytes.
 *
 * @since 0.1.0
 * @category models
 */
export type FileSource<E = never, R = never> = Internal.FileSource<E, R>

/**
 * Options of `upload`: the file's fields (`path`, `labels`, `publicUrl`, `batchId`, `customConfigs`,
 * `metadata`, `dataSource`), its name (by default
 * the path's last part, the `File`'s name, or `file.txt`), and the largest file sent.
 *
 * @since 0.1.0
 * @category models
 */
export interface UploadOptions extends UploadFields {
  /** The file name the service keeps; its extension gives the file's type (`.txt`, `.md`, `.html`, ...). */
  readonly name?: string | undefined
  /**
   * The largest file sent, in bytes (default 64 MiB). A larger file fails with `ValidationError` before
   * anything is sent; a stream is sent as it is read, and fails with `ValidationError` as soon as it passes
   * this, read no further.
   */
  readonly maxUploadSize?: number | undefined
}

/**
 * Uploads a stream as the file part of a form sent as it is read: each chunk counted, the upload failing
 * with `ValidationError` once it passes `limit` (the request is aborted, nothing more read). The stream's
 * own failure ends the upload with that failure; a streamed form is sent once, never retried.
 */
const uploadStream = <A, E, R>(
  stream: Stream.Stream<Uint8Array, E, R>,
  limit: number,
  name: string,
  fields: typeof UploadFields.Type,
  send: (body: RawBody) => Effect.Effect<A, RequestError, StudioClient>
): Effect.Effect<A, RequestError | E, StudioClient | R> =>
  Effect.gen(function*() {
    const context = yield* Effect.context<R>()
    const form = streamedUploadForm(name, fields, formBoundary())
    // why the file's stream stopped, when it did: the request then fails for it, and the upload with it
    let stopped: { readonly error: E | ValidationError } | undefined
    let size = 0
    const counted = Stream.mapEffect(stream, (bytes) => {
      size += bytes.length
      return size > limit ? Effect.fail(tooLarge("library.upload", limit)) : Effect.succeed(bytes)
    }).pipe(
      Stream.tapError((error) => Effect.sync(() => (stopped = { error }))),
      Stream.provideContext(context)
    )
    const body = Stream.make(form.head).pipe(Stream.concat(counted), Stream.concat(Stream.make(form.tail)))
    return yield* send({ stream: body, contentType: form.contentType }).pipe(
      Effect.catchAll((error) => Effect.fail(stopped === undefined ? error : stopped.error))
    )
  })

/** The multipart form of an upload, as the bytes sent and their content type (with its boundary). */
const formOf = (blob: Blob, name: string, fields: typeof UploadFields.Type): Effect.Effect<RawBody> =>
  Effect.promise(() => uploadForm(blob, name, fields))

const uploadOperation = Operation.json({
  endpoint: endpoints.libraryUpload,
  check: (_operation, form: RawBody) => Effect.succeed(form),
  raw: (form) => form,
  response: UploadedFile
})

const validateUploadFields = requestValidator(UploadFields)

/**
 * An upload sent by `send`: its fields checked, then a path, bytes or a `Blob` read within `maxUploadSize` and
 * sent as one form, or a `Stream` sent as it is read.
 */
const uploadWith = <A>(send: (body: RawBody) => Effect.Effect<A, RequestError, StudioClient>) =>
<E, R>(
  file: FileSource<E, R>,
  options: UploadOptions
): Effect.Effect<A, RequestError | E, StudioClient | R | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const { maxUploadSize, name, ...rest } = options
    const limit = maxUploadSize ?? defaultMaxUploadSize
    if (!(Number.isSafeInteger(limit) && limit >= 1)) {
      return yield* requestRefusal(
        "library.upload",
        "maxUploadSize",
        `${limit} is not a size: use a whole number of bytes, such as 8388608`
      )
    }
    const fields = yield* validateUploadFields("library.upload", rest)
    if (!(typeof file === "string" || file instanceof Uint8Array || file instanceof Blob)) {
      return yield* uploadStream(file, limit, name ?? defaultFileName, fields, send)
    }
    const source = yield* readSource<never, never>("library.upload", file, limit)
    return yield* send(yield* formOf(source.blob, name ?? source.name, fields))
  })

/**
 * Uploads a file to the library, as a `multipart/form-data` form: the file, with its `path`, `labels`,
 * `publicUrl`, `batchId`, `customConfigs`, `metadata` and `dataSource` when given. A path, bytes or a
 * `Blob` is read first, up to `maxUploadSize` bytes (64 MiB by default); a larger one, or one that cannot
 * be read, fails with `ValidationError` and nothing is sent. A path is read with Effect's `FileSystem`
 * (provide `NodeFileSystem.layer` or the like). A `Stream` is sent as it is read, never held whole: once
 * it passes `maxUploadSize` the upload fails with `ValidationError` and the request is aborted; a failure
 * of the stream ends the upload with that failure, and a streamed upload is not retried. Returns the new
 * file's id; the file is `PROCESSING` until the service has indexed it.
 *
 * @since 0.1.0
 * @category operations
 */
export const upload: {
  (
    file: string,
    options?: UploadOptions
  ): Effect.Effect<UploadedFile, RequestError, StudioClient | FileSystem.FileSystem>
  <E = never, R = never>(
    file: Uint8Array | Blob | Stream.Stream<Uint8Array, E, R>,
    options?: UploadOptions
  ): Effect.Effect<UploadedFile, RequestError | E, StudioClient | R>
} = <E, R>(file: FileSource<E, R>, options: UploadOptions = {}): Effect.Effect<any, any, any> =>
  uploadWith(uploadOperation)(file, options)

/**
 * `upload`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.2.0
 * @category operations
 */
export const uploadWithResponse: {
  (
    file: string,
    options?: UploadOptions
  ): Effect.Effect<WithResponse<UploadedFile>, RequestError, StudioClient | FileSystem.FileSystem>
  <E = never, R = never>(
    file: Uint8Array | Blob | Stream.Stream<Uint8Array, E, R>,
    options?: UploadOptions
  ): Effect.Effect<WithResponse<UploadedFile>, RequestError | E, StudioClient | R>
} = <E, R>(file: FileSource<E, R>, options: UploadOptions = {}): Effect.Effect<any, any, any> =>
  uploadWith(uploadOperation.withResponse)(file, options)

const listOperation = Operation.json({
  endpoint: endpoints.libraryList,
  check: Operation.checkRequest(ListFilesRequest),
  path: (valid) => endpointPath(endpoints.libraryList, undefined, libraryListQuery(valid)),
  response: LibraryFiles
})

const retrieveOperation = Operation.json({
  endpoint: endpoints.libraryRetrieve,
  check: Operation.checkId("fileId"),
  response: LibraryFile
})

/** The answer of an update or a delete: nothing the caller needs (the service sends `null`). */
const NoContent = Schema.Unknown

/** The metadata of an answer whose value the caller does not need. */
const withoutValue = (answer: WithResponse<unknown>): WithResponse<void> => ({ ...answer, value: undefined })

const updateOperation = Operation.json({
  endpoint: endpoints.libraryUpdate,
  check: Operation.checkIdAndRequest("fileId", UpdateFileRequest),
  body: ({ request }) => request,
  response: NoContent
})

const deleteOperation = Operation.json({
  endpoint: endpoints.libraryDelete,
  check: Operation.checkId("fileId"),
  response: NoContent
})

const searchOperation = Operation.json({
  endpoint: endpoints.librarySearch,
  check: Operation.checkRequest(LibrarySearchRequest),
  body: (valid) => valid,
  response: LibrarySearchResponse
})

const parsedOperation = Operation.json({
  endpoint: endpoints.libraryParsed,
  check: Operation.checkId("fileId"),
  response: ParsedFile
})

const downloadCheck = Operation.checkId("fileId")

const batchStatusOperation = Operation.json({
  endpoint: endpoints.libraryBatchStatus,
  check: Operation.checkId("batchId"),
  response: BatchStatus
})

/**
 * Lists the files that pass every filter given (`name`, `path` as a prefix, `status`, each `label`),
 * in upload order: `offset` files skipped, at most `limit` returned.
 *
 * @since 0.1.0
 * @category operations
 */
export const list = (
  request: ListFilesRequest = {}
): Effect.Effect<ReadonlyArray<LibraryFile>, RequestError, StudioClient> => listOperation(request)

/**
 * `list`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.2.0
 * @category operations
 */
export const listWithResponse = (
  request: ListFilesRequest = {}
): Effect.Effect<WithResponse<ReadonlyArray<LibraryFile>>, RequestError, StudioClient> =>
  listOperation.withResponse(request)

/**
 * Every file that passes the filters, as a `Stream` that lists them a page (`pageSize`, default 100) at
 * a time, from `offset`, until a page comes back short.
 *
 * @since 0.1.0
 * @category operations
 */
export const stream = (
  request: Omit<ListFilesRequest, "limit"> & { readonly pageSize?: number | undefined } = {}
): Stream.Stream<LibraryFile, RequestError, StudioClient> => {
  const { pageSize = 100, ...filters } = request
  return Stream.paginateChunkEffect(filters.offset ?? 0, (offset) =>
    Effect.map(
      list({ ...filters, limit: pageSize, offset }),
      (page) =>
        [
          Chunk.fromIterable(page),
          page.length < pageSize ? Option.none() : Option.some(offset + page.length)
        ] as const
    ))
}

/**
 * Retrieves a file's metadata. An unknown id fails with `NotFound`.
 *
 * @since 0.1.0
 * @category operations
 */
export const retrieve: (fileId: string) => Effect.Effect<LibraryFile, RequestError, StudioClient> = retrieveOperation

/**
 * `retrieve`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.2.0
 * @category operations
 */
export const retrieveWithResponse: (
  fileId: string
) => Effect.Effect<WithResponse<LibraryFile>, RequestError, StudioClient> = retrieveOperation.withResponse

/**
 * Changes a file: the `labels` given replace all of its labels, the `publicUrl` given replaces its own.
 * An unknown id fails with `NotFound`.
 *
 * @since 0.1.0
 * @category operations
 */
export const update = (
  fileId: string,
  request: UpdateFileRequest
): Effect.Effect<void, RequestError, StudioClient> => Effect.asVoid(updateOperation({ id: fileId, request }))

/**
 * `update`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.2.0
 * @category operations
 */
export const updateWithResponse = (
  fileId: string,
  request: UpdateFileRequest
): Effect.Effect<WithResponse<void>, RequestError, StudioClient> =>
  Effect.map(updateOperation.withResponse({ id: fileId, request }), withoutValue)

/**
 * `delete`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.2.0
 * @category operations
 */
export const deleteWithResponse = (fileId: string): Effect.Effect<WithResponse<void>, RequestError, StudioClient> =>
  Effect.map(deleteOperation.withResponse(fileId), withoutValue)

const del = (fileId: string): Effect.Effect<void, RequestError, StudioClient> => Effect.asVoid(deleteOperation(fileId))

export {
  /**
   * Deletes a file. An unknown id fails with `NotFound`; a file still `PROCESSING` cannot be deleted (the
   * service answers 422, a `ValidationError`).
   *
   * @since 0.1.0
   * @category operations
   */
  del as delete
}

/**
 * Searches the segments of the library's processed files for `query`, among the files the filters allow,
 * best first.
 *
 * @since 0.1.0
 * @category operations
 */
export const search = (
  request: LibrarySearchRequest
): Effect.Effect<LibrarySearchResponse, RequestError, StudioClient> => searchOperation(request)

/**
 * `search`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.2.0
 * @category operations
 */
export const searchWithResponse = (
  request: LibrarySearchRequest
): Effect.Effect<WithResponse<LibrarySearchResponse>, RequestError, StudioClient> =>
  searchOperation.withResponse(request)

/**
 * The status of a batch upload: how many files it has and how many are in each status. An unknown batch
 * fails with `NotFound`.
 *
 * @since 0.1.0
 * @category operations
 */
export const batchStatus: (batchId: string) => Effect.Effect<BatchStatus, RequestError, StudioClient> =
  batchStatusOperation

/**
 * `batchStatus`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.2.0
 * @category operations
 */
export const batchStatusWithResponse: (
  batchId: string
) => Effect.Effect<WithResponse<BatchStatus>, RequestError, StudioClient> = batchStatusOperation.withResponse

/**
 * The largest download `download` and `downloadBytes` read when no `maxDownloadSize` is given: 64 MiB.
 *
 * @since 1.1.0
 * @category constants
 */
export const defaultMaxDownloadSize = 64 * 1024 * 1024

/**
 * Options of `download` and `downloadBytes`.
 *
 * @since 1.1.0
 * @category models
 */
export interface DownloadOptions {
  /**
   * The most bytes read, in bytes (default 64 MiB): a longer file fails with `DecodeError` as soon as that
   * is known (from its `Content-Length`, or once that many bytes arrived), read no further.
   */
  readonly maxDownloadSize?: number | undefined
}

/**
 * A file's bytes as uploaded (`GET /library/files/{id}/download`), as a `Stream` read as it is pulled: the
 * request is sent when the stream starts (and retried as any call), its body read with the client's idle
 * timeout and bounded by `maxDownloadSize`. Write it where it goes (a file, a hash) without holding it
 * whole; `downloadBytes` gives it whole. An unknown id fails with `NotFound`.
 *
 * @since 1.1.0
 * @category operations
 */
export const download = (
  fileId: string,
  options: DownloadOptions = {}
): Stream.Stream<Uint8Array, RequestError, StudioClient> => {
  const { name } = endpoints.libraryDownload
  const limit = options.maxDownloadSize ?? defaultMaxDownloadSize
  return Stream.unwrapScoped(Effect.gen(function*() {
    if (!(Number.isSafeInteger(limit) && limit >= 1)) {
      return yield* requestRefusal(
        name,
        "maxDownloadSize",
        `${limit} is not a size: use a whole number of bytes, such as 8388608`
      )
    }
    const { id, segment } = yield* downloadCheck(name, fileId)
    const client = yield* StudioClient
    // the span is the scope's: it ends with the stream, failed if the stream fails
    yield* Effect.makeSpanScoped(`studio.${name}`, {
      attributes: client.redactAttributes(endpoints.libraryDownload.attributes({ id }))
    })
    return yield* client.openBytes({
      operation: name,
      path: endpointPath(endpoints.libraryDownload, segment),
      maxSize: limit
    })
  }))
}

/**
 * A file's bytes as uploaded, whole: `download` read to its end, within `maxDownloadSize`.
 *
 * @since 1.1.0
 * @category operations
 */
export const downloadBytes = (
  fileId: string,
  options: DownloadOptions = {}
): Effect.Effect<Uint8Array, RequestError, StudioClient> =>
  Effect.suspend(() => {
    const parts: Array<Uint8Array> = []
    let size = 0
    return Stream.runForEach(download(fileId, options), (bytes) =>
      Effect.sync(() => {
        parts.push(bytes)
        size += bytes.length
      })).pipe(Effect.map(() => concatBytes(parts, size)))
  })

/**
 * The text the service extracted from a file (`GET /library/files/{id}/parsed`): all of it and its
 * segments, in the file's order. An unknown id fails with `NotFound`; the reference service answers 422
 * (`ValidationError`) while the file is `PROCESSING` or when its text could not be read.
 *
 * @since 1.1.0
 * @category operations
 */
export const parsed: (fileId: string) => Effect.Effect<ParsedFile, RequestError, StudioClient> = parsedOperation
