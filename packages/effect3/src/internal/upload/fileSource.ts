/**
 * The file of an upload (to the library, or a batch's): read from a local path (with Effect's `FileSystem`),
 * bytes, a `Blob` or a byte `Stream`, no further than a limit, as a `Blob` with its default name. A file too
 * large or unreadable fails with `ValidationError` naming the operation, and nothing is sent.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { concatBytes } from "studio-effect-core/bytes/concatBytes"
import { tooLargeReason } from "studio-effect-core/bytes/sizeLimits"
import { baseName, blobName, defaultFileName, notAFileMessage } from "studio-effect-core/wire/libraryUpload"
import { ValidationError, ValidationIssue } from "../../StudioError.js"

/** A file to upload: a local path, its bytes, a `Blob` (or a `File`), or a stream of its bytes. */
export type FileSource<E = never, R = never> = string | Uint8Array | Blob | Stream.Stream<Uint8Array, E, R>

/** A request of `operation` refused before it is sent: the field at `path` and what is wrong with it. */
export const requestRefusal = (operation: string, path: string, message: string) =>
  new ValidationError({
    operation,
    source: "client",
    issues: [new ValidationIssue({ path, message })]
  })

/** The refusal of a file past `maxUploadSize`. */
export const tooLarge = (operation: string, limit: number) =>
  requestRefusal(operation, "file", tooLargeReason("maxUploadSize", limit))

/** The bytes of a stream, failing as soon as they pass `limit`. */
const collect = <E, R>(
  operation: string,
  stream: Stream.Stream<Uint8Array, E, R>,
  limit: number
): Effect.Effect<Uint8Array, E | ValidationError, R> =>
  Effect.suspend(() => {
    const parts: Array<Uint8Array> = []
    let size = 0
    return Stream.runForEach(stream, (bytes) => {
      size += bytes.length
      if (size > limit) return Effect.fail(tooLarge(operation, limit))
      parts.push(bytes)
      return Effect.void
    }).pipe(Effect.map(() => concatBytes(parts, size)))
  })

/** The file as a `Blob` and its default name, read within the size limit. */
export const readSource = <E, R>(
  operation: string,
  file: FileSource<E, R>,
  limit: number
): Effect.Effect<{ readonly blob: Blob; readonly name: string }, E | ValidationError, R | FileSystem.FileSystem> => {
  if (typeof file === "string") {
    return Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const unreadable = (error: { readonly message: string }) =>
        requestRefusal(operation, "file", `cannot read ${file}: ${error.message}`)
      const info = yield* Effect.mapError(fs.stat(file), unreadable)
      if (info.type !== "File") {
        return yield* requestRefusal(operation, "file", notAFileMessage(file, info.type))
      }
      if (Number(info.size) > limit) return yield* tooLarge(operation, limit)
      // read as a stream, no further than the limit: the file may grow while it is read
      const bytes = yield* collect(operation, Stream.mapError(fs.stream(file), unreadable), limit)
      return { blob: new Blob([bytes as Uint8Array<ArrayBuffer>]), name: baseName(file) }
    })
  }
  if (file instanceof Uint8Array) {
    return file.length > limit
      ? Effect.fail(tooLarge(operation, limit))
      : Effect.succeed({ blob: new Blob([file as Uint8Array<ArrayBuffer>]), name: defaultFileName })
  }
  if (file instanceof Blob) {
    return file.size > limit
      ? Effect.fail(tooLarge(operation, limit))
      : Effect.succeed({ blob: file, name: blobName(file) })
  }
  return Effect.map(collect(operation, file, limit), (bytes) => ({
    blob: new Blob([bytes as Uint8Array<ArrayBuffer>]),
    name: defaultFileName
  }))
}
