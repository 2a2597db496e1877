/**
 * A `multipart/form-data` body (RFC 7578) as its parts: each field's name, and for a file its file name,
 * content type and bytes. The body is already bounded by the service's limit; the parser is linear in its
 * size, keeps at most `maxParts` parts, and reads part headers of at most `maxHeaderBytes`.
 */

/** One part of a multipart body. */
export interface Part {
  readonly name: string
  /** The `filename` of a file part; `undefined` for a plain field. */
  readonly filename: string | undefined
  readonly contentType: string | undefined
  readonly body: Uint8Array
}

/** The most parts of one body. */
export const maxParts = 256

/** The longest header block of one part, in bytes. */
export const maxHeaderBytes = 8 * 1024

/** Why a body is not a multipart body the service reads. */
export type MultipartError =
  | { readonly _tag: "NotMultipart" }
  | { readonly _tag: "Malformed"; readonly reason: string }

/** The boundary of a `content-type` header of `multipart/form-data`, if it is one. */
export const boundaryOf = (contentType: string | undefined): string | undefined => {
  if (contentType === undefined || !/^\s*multipart\/form-data\s*(;|$)/iu.test(contentType)) return undefined
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/iu.exec(contentType)
  return match === null ? undefined : match[1] ?? match[2]
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The index of `needle` in `haystack` from `from`, or -1. */
const indexOf = (haystack: Uint8Array, needle: Uint8Array, from: number): number => {
  const first = needle[0]!
  const last = haystack.length - needle.length
  for (let i = haystack.indexOf(first, from); i !== -1 && i <= last; i = haystack.indexOf(first, i + 1)) {
    let j = 1
    while (j < needle.length && haystack[i + j] === needle[j]) j++
    if (j === needle.length) return i
  }
  return -1
}

/** A parameter of a `content-disposition` header, quoted or not. */
const parameter = (header: string, name: string): string | undefined => {
  const match = new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${name}=([^;\\s]*)`, "iu").exec(header)
  if (match === null) return undefined
  return match[1] !== undefined ? match[1].replace(/\\(.)/gu, "$1") : match[2]
}

/**
 * The parts of a multipart body with the `content-type` it was sent with. The boundary search is linear
 * (a boundary is at most 70 bytes); a body without its closing boundary, or with a part without a
 * `content-disposition` name, is malformed.
 */
export const parseMultipart = (
  contentType: string | undefined,
  body: Uint8Array
): { readonly _tag: "Parts"; readonly parts: ReadonlyArray<Part> } | MultipartError => {
  const boundary = boundaryOf(contentType)
  if (boundary === undefined) return { _tag: "NotMultipart" }
  const malformed = (reason: string): MultipartError => ({ _tag: "Malformed", reason })
  const delimiter = encoder.encode(`--${boundary}`)
  const separator = encoder.encode(`\r\n--${boundary}`)
  const headerEnd = encoder.encode("\r\n\r\n")
  let at = indexOf(body, delimiter, 0)
  if (at === -1) return malformed("the body has no boundary")
  const parts: Array<Part> = []
  for (;;) {
    at += delimiter.length
    // `--` after a boundary ends the body
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return { _tag: "Parts", parts }
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a) return malformed("a boundary is not followed by a line end")
    at += 2
    if (parts.length >= maxParts) return malformed(`the body has more than ${maxParts} parts`)
    const headersEnd = indexOf(body.subarray(0, Math.min(body.length, at + maxHeaderBytes + 4)), headerEnd, at)
    if (headersEnd === -1) return malformed(`a part's headers do not end within ${maxHeaderBytes} bytes`)
    const headers = decoder.decode(body.subarray(at, headersEnd)).split("\r\n")
    let disposition: string | undefined
    let partType: string | undefined
    for (const line of headers) {
      const colon = line.indexOf(":")
      if (colon === -1) continue
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      if (name === "content-disposition") disposition = value
      else if (name === "content-type") partType = value
    }
    const fieldName = disposition === undefined || !/^form-data\s*(;|$)/iu.test(disposition)
      ? undefined
      : parameter(disposition, "name")
    if (fieldName === undefined) return malformed("a part has no content-disposition form-data name")
    const start = headersEnd + headerEnd.length
    const end = indexOf(body, separator, start)
    if (end === -1) return malformed("the body ends before its closing boundary")
    parts.push({
      name: fieldName,
      filename: parameter(disposition!, "filename"),
      contentType: partType,
      body: body.subarray(start, end)
    })
    at = end + 2
  }
}

/** The text of a plain field (UTF-8). */
export const fieldText = (part: Part): string => decoder.decode(part.body)
