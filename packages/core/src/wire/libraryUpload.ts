/**
 * What an upload to the library sends, besides reading its file: the file's default name, the multipart
 * form of the file and its fields, and the words of a file that cannot be sent.
 *
 * @since 0.1.0
 */

/**
 * The fields of an upload beside its file.
 *
 * @since 0.1.0
 * @category models
 */
export interface UploadFormFields {
  readonly path?: string | undefined
  readonly labels?: ReadonlyArray<string> | undefined
  readonly publicUrl?: string | undefined
  readonly batchId?: string | undefined
}

/**
 * The name a file is sent under when none is given and its source has none.
 *
 * @since 0.1.0
 * @category names
 */
export const defaultFileName = "file.txt"

/**
 * The last part of a local path (after `/` or `\`): the name its file is sent under.
 *
 * @since 0.1.0
 * @category names
 */
export const baseName = (path: string): string =>
  path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1)

/**
 * The name of a `Blob`: a `File`'s own, else `file.txt`.
 *
 * @since 0.1.0
 * @category names
 */
export const blobName = (blob: Blob): string =>
  "name" in blob && typeof blob.name === "string" ? blob.name : defaultFileName

/**
 * Why a local path is not uploaded: a directory, or anything but a regular file (a FIFO or a device has no
 * size to check first, and Effect's `FileSystem` reads files by position).
 *
 * @since 0.1.0
 * @category messages
 */
export const notAFileMessage = (path: string, type: string): string =>
  `${path} is ${type === "Directory" ? "a directory" : `not a regular file (${type})`}: upload a file, ` +
  "or pass its bytes as a Stream"

/**
 * The multipart form of an upload, as the bytes sent and their content type (with its boundary), encoded
 * by the platform's own encoder (`Response` over `FormData`).
 *
 * @since 0.1.0
 * @category forms
 */
export const uploadForm = async (
  blob: Blob,
  name: string,
  fields: UploadFormFields
): Promise<{ readonly bytes: Uint8Array; readonly contentType: string }> => {
  const form = new FormData()
  form.append("file", blob, name)
  if (fields.path !== undefined) form.append("path", fields.path)
  for (const label of fields.labels ?? []) form.append("labels", label)
  if (fields.publicUrl !== undefined) form.append("publicUrl", fields.publicUrl)
  if (fields.batchId !== undefined) {
    form.append("batch_id", fields.batchId)
    form.append("upload_mode", "batch")
  }
  const encoded = new Response(form)
  return { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! }
}
