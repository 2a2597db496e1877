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
  /** Configuration of the file's processing, as JSON text (`custom_configs`). */
  readonly customConfigs?: string | undefined
  /** Metadata kept with the file, as JSON text (`metadata`). */
  readonly metadata?: string | undefined
  /** Where the file came from (`data_source`); the service shows it as the file's `dataSource`. */
  readonly dataSource?: string | undefined
}

/**
 * The form fields of an upload beside its file, in the order they are sent, as the official Python client
 * names them: `path`, each of `labels`, `publicUrl`, `custom_configs`, `metadata`, `data_source`, and
 * `batch_id` with `upload_mode: batch`.
 *
 * @since 1.1.0
 * @category forms
 */
export const uploadFormEntries = (fields: UploadFormFields): Array<readonly [string, string]> => {
  const entries: Array<readonly [string, string]> = []
  if (fields.path !== undefined) entries.push(["path", fields.path])
  for (const label of fields.labels ?? []) entries.push(["labels", label])
  if (fields.publicUrl !== undefined) entries.push(["publicUrl", fields.publicUrl])
  if (fields.customConfigs !== undefined) entries.push(["custom_configs", fields.customConfigs])
  if (fields.metadata !== undefined) entries.push(["metadata", fields.metadata])
  if (fields.dataSource !== undefined) entries.push(["data_source", fields.dataSource])
  if (fields.batchId !== undefined) {
    entries.push(["batch_id", fields.batchId])
    entries.push(["upload_mode", "batch"])
  }
  return entries
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
  for (const [field, value] of uploadFormEntries(fields)) form.append(field, value)
  const encoded = new Response(form)
  return { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! }
}

/**
 * A multipart form whose file part is streamed: the bytes before the file's (the boundary and the part's
 * headers), the bytes after them (every field and the closing boundary), and the content type with its
 * boundary. `head`, the file's bytes and `tail` sent one after the other are the form `uploadForm` would
 * encode, without the file ever being held whole.
 *
 * @since 1.1.0
 * @category models
 */
export interface StreamedForm {
  readonly head: Uint8Array
  readonly tail: Uint8Array
  readonly contentType: string
}

const encoder = new TextEncoder()

/** A name in a part's header, escaped as the platform's `FormData` escapes it. */
const escapeName = (name: string): string => name.replace(/\n/g, "%0A").replace(/\r/g, "%0D").replace(/"/g, "%22")

/** A field's value with its line breaks as CRLF, as the platform's `FormData` sends it. */
const normalizeLineBreaks = (value: string): string => value.replace(/\r?\n|\r/g, "\r\n")

/**
 * A boundary for a streamed form: 32 random hexadecimal digits after dashes, so it cannot be guessed to
 * appear in a file.
 *
 * @since 1.1.0
 * @category forms
 */
export const formBoundary = (): string => `----studio-effect-${crypto.randomUUID().replaceAll("-", "")}`

/**
 * The multipart form of an upload whose file is streamed (see `StreamedForm`): the file part first, under
 * `name` as `application/octet-stream`, then the fields as `uploadFormEntries` orders them.
 *
 * @since 1.1.0
 * @category forms
 */
export const streamedUploadForm = (name: string, fields: UploadFormFields, boundary: string): StreamedForm => {
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${
    escapeName(name)
  }"\r\nContent-Type: application/octet-stream\r\n\r\n`
  let tail = "\r\n"
  for (const [field, value] of uploadFormEntries(fields)) {
    tail += `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(field)}"\r\n\r\n${
      normalizeLineBreaks(value)
    }\r\n`
  }
  tail += `--${boundary}--\r\n`
  return {
    head: encoder.encode(head),
    tail: encoder.encode(tail),
    contentType: `multipart/form-data; boundary=${boundary}`
  }
}
