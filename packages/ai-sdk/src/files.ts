/**
 * The library of files as the AI SDK's `FilesV4`: `uploadFile` sends a file to the library (the core's
 * multipart form, within `maxUploadSize`), `getFileMetadata` reads its entry, `deleteFile` removes it. A file
 * is referred to as `{ studio: fileId }`. The library has no download, so `downloadFile` is not offered.
 */
import type {
  FilesV4,
  FilesV4DeleteFileCallOptions,
  FilesV4DeleteFileResult,
  FilesV4GetFileMetadataCallOptions,
  FilesV4GetFileMetadataResult,
  FilesV4UploadFileCallOptions,
  FilesV4UploadFileResult,
  SharedV4ProviderReference
} from "@ai-sdk/provider"
import { InvalidArgumentError } from "@ai-sdk/provider"
import { convertBase64ToUint8Array } from "@ai-sdk/provider-utils"
import { tooLargeReason } from "studio-effect-core/bytes/sizeLimits"
import { endpoints } from "studio-effect-core/wire/endpoints"
import { defaultFileName, uploadForm } from "studio-effect-core/wire/libraryUpload"
import { type Connection, readLimited, send, sendJson, unexpectedAnswer } from "./http.js"

/** What `providerOptions.studio` of an upload may hold: the file's path and labels in the library. */
export interface StudioUploadOptions {
  readonly path?: string
  readonly labels?: ReadonlyArray<string>
}

/** The largest file uploaded when no `maxUploadSize` is given: 64 MiB. */
export const defaultMaxUploadSize = 64 * 1024 * 1024

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The bytes of an upload's data, at most `limit` of them. */
const uploadBytes = async (data: FilesV4UploadFileCallOptions["data"], limit: number): Promise<Uint8Array> => {
  const bytes = data.type === "text"
    ? new TextEncoder().encode(data.text)
    : data.type === "data"
    ? typeof data.data === "string" ? convertBase64ToUint8Array(data.data) : data.data
    : await readLimited(new Response(data.stream), limit)
  if (bytes === undefined || bytes.byteLength > limit) {
    throw new InvalidArgumentError({ argument: "data", message: tooLargeReason("maxUploadSize", limit) })
  }
  return bytes
}

/** The file id of a reference made by this provider. */
const fileIdOf = (reference: SharedV4ProviderReference, provider: string): string => {
  const id = reference["studio"]
  if (typeof id !== "string" || id === "") {
    throw new InvalidArgumentError({
      argument: "file",
      message: `the reference names no file of ${provider}: give { studio: fileId }, as uploadFile returns it`
    })
  }
  return id
}

const filePath = (id: string): string => endpoints.libraryRetrieve.path.replace("{id}", encodeURIComponent(id))

/** A day `YYYY-MM-DD` as a date, when it is one. */
const dayOf = (value: unknown): Date | undefined => {
  if (typeof value !== "string") return undefined
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`)
  return Number.isNaN(date.getTime()) ? undefined : date
}

export class StudioFiles implements FilesV4 {
  readonly specificationVersion = "v4"

  constructor(
    readonly provider: string,
    private readonly connection: Connection,
    private readonly maxUploadSize: number
  ) {}

  async uploadFile(options: FilesV4UploadFileCallOptions): Promise<FilesV4UploadFileResult> {
    options.abortSignal?.throwIfAborted()
    const studio = options.providerOptions?.["studio"] as StudioUploadOptions | undefined
    const bytes = await uploadBytes(options.data, this.maxUploadSize)
    const name = options.filename ?? defaultFileName
    const form = await uploadForm(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: options.mediaType }), name, {
      path: studio?.path,
      labels: studio?.labels
    })
    const request = {
      operation: "library.upload",
      method: "POST",
      path: endpoints.libraryUpload.path,
      body: form.bytes,
      contentType: form.contentType,
      requestBodyValues: { filename: name, mediaType: options.mediaType, byteSize: bytes.byteLength },
      headers: options.headers,
      abortSignal: options.abortSignal
    } as const
    const answer = await sendJson(this.connection, request)
    const value = answer.value
    if (!isRecord(value) || typeof value.fileId !== "string") {
      throw unexpectedAnswer(answer, request, "an upload answers { fileId }")
    }
    return {
      providerReference: { studio: value.fileId },
      mediaType: options.mediaType,
      filename: name,
      byteSize: bytes.byteLength,
      warnings: []
    }
  }

  async getFileMetadata(options: FilesV4GetFileMetadataCallOptions): Promise<FilesV4GetFileMetadataResult> {
    const id = fileIdOf(options.file, this.provider)
    const request = {
      operation: "library.retrieve",
      method: "GET",
      path: filePath(id),
      requestBodyValues: undefined,
      headers: options.headers,
      abortSignal: options.abortSignal
    } as const
    const answer = await sendJson(this.connection, request)
    const file = answer.value
    if (!isRecord(file) || typeof file.fileId !== "string" || typeof file.name !== "string") {
      throw unexpectedAnswer(answer, request, "a file's entry has its fileId and name")
    }
    const createdAt = dayOf(file.creationDate)
    return {
      providerReference: { studio: file.fileId },
      filename: file.name,
      ...(typeof file.sizeBytes === "number" ? { byteSize: file.sizeBytes } : {}),
      ...(createdAt === undefined ? {} : { createdAt }),
      providerMetadata: {
        studio: {
          fileType: typeof file.fileType === "string" ? file.fileType : null,
          status: typeof file.status === "string" ? file.status : null,
          path: typeof file.path === "string" ? file.path : null,
          labels: Array.isArray(file.labels) ? file.labels.filter((label) => typeof label === "string") : []
        }
      },
      warnings: []
    }
  }

  async deleteFile(options: FilesV4DeleteFileCallOptions): Promise<FilesV4DeleteFileResult> {
    const id = fileIdOf(options.file, this.provider)
    const answer = await send(this.connection, {
      operation: "library.delete",
      method: "DELETE",
      path: filePath(id),
      requestBodyValues: undefined,
      headers: options.headers,
      abortSignal: options.abortSignal
    })
    await answer.response.body?.cancel()
    return { providerReference: { studio: id }, deleted: true, warnings: [] }
  }
}
