/**
 * The text of a library file and its segments: plain text and Markdown as they are, HTML without its
 * markup (scripts and styles dropped, block elements as paragraph breaks, entities decoded), JSON as one
 * paragraph per value (`path: value`). Text is split into segments at paragraph breaks, paragraphs are joined
 * up to a segment's size, and a longer paragraph is split at sentence ends, or cut by code points.
 */

/** The kinds of file whose text the service indexes. */
export const indexedFileTypes = ["txt", "md", "html", "json"] as const

/** A kind of file the service indexes. */
export type IndexedFileType = typeof indexedFileTypes[number]

/** The kinds of file the service stores without indexing them (it does not extract their text). */
export const storedFileTypes = ["pdf", "docx"] as const

/** The longest segment, in code points. */
export const maxSegmentLength = 1000

/** The file type of a file name (its extension, lower-cased, `htm` and `markdown` folded), if one the
 * service accepts. */
export const fileTypeOf = (name: string): IndexedFileType | typeof storedFileTypes[number] | undefined => {
  const dot = name.lastIndexOf(".")
  const extension = dot === -1 ? "" : name.slice(dot + 1).toLowerCase()
  switch (extension) {
    case "txt":
    case "text":
      return "txt"
    case "md":
    case "markdown":
      return "md"
    case "html":
    case "htm":
      return "html"
    case "json":
      return "json"
    case "pdf":
      return "pdf"
    case "docx":
      return "docx"
    default:
      return undefined
  }
}

const entities: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: "\"",
  apos: "'",
  nbsp: " "
}

const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/giu, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole
    }
    return entities[name.toLowerCase()] ?? whole
  })

const blockElements =
  /<\/?(?:p|div|br|hr|h[1-6]|li|ul|ol|tr|table|section|article|header|footer|blockquote|pre|title)\b[^<>]*>/giu

/** The visible text of an HTML document, with a paragraph break for each block element. */
export const htmlText = (html: string): string =>
  decodeEntities(
    html
      .replace(/<!--[\s\S]*?(?:-->|$)/gu, " ")
      .replace(/<(script|style|head)\b[^<>]*>[\s\S]*?(?:<\/\1\s*>|$)/giu, (whole, tag: string) =>
        // the head's title is text a reader sees
        tag.toLowerCase() === "head" ? (/<title\b[^<>]*>([\s\S]*?)<\/title/iu.exec(whole)?.[1] ?? "") + "\n\n" : " ")
      .replace(blockElements, "\n\n")
      .replace(/<[^<>]*>/gu, " ")
  )

/** The most values of a JSON document that become lines; the rest are not indexed. */
const maxJsonValues = 100_000

/** A JSON document as lines `path: value`, one per string, number or boolean; `undefined` when not JSON. */
export const jsonText = (text: string): string | undefined => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  const lines: Array<string> = []
  // an explicit stack: a document nested thousands deep must not overflow the call stack
  const stack: Array<readonly [string, unknown]> = [["", value]]
  while (stack.length > 0 && lines.length < maxJsonValues) {
    const [path, current] = stack.pop()!
    if (typeof current === "object" && current !== null) {
      const entries = Array.isArray(current)
        ? current.map((item, i) => [`${path}[${i}]`, item] as const)
        : Object.entries(current).map(([key, item]) => [path === "" ? key : `${path}.${key}`, item] as const)
      for (let i = entries.length - 1; i >= 0; i--) stack.push(entries[i]!)
    } else if (current !== null) {
      lines.push(path === "" ? String(current) : `${path}: ${String(current)}`)
    }
  }
  // each value a paragraph of its own: paragraphs are joined into segments up to a segment's size
  return lines.join("\n\n")
}

/** The text of a file of an indexed type, or `undefined` when it cannot be read as that type. */
export const textOf = (fileType: IndexedFileType, text: string): string | undefined =>
  fileType === "html" ? htmlText(text) : fileType === "json" ? jsonText(text) : text

const sentences = (paragraph: string): Array<string> => paragraph.split(/(?<=[.!?])\s+/u)

/** Cuts a text into pieces of at most `maxSegmentLength` code points. */
const cut = (text: string): Array<string> => {
  const points = Array.from(text)
  const pieces: Array<string> = []
  for (let i = 0; i < points.length; i += maxSegmentLength) {
    pieces.push(points.slice(i, i + maxSegmentLength).join(""))
  }
  return pieces
}

const lengthOf = (text: string): number => {
  let length = 0
  for (const _ of text) length++
  return length
}

/**
 * The segments of a text, in order: paragraphs (separated by a blank line), whitespace collapsed, joined while they fit in `maxSegmentLength` code points;
 * a longer paragraph is split at sentence ends, and a longer sentence is cut. No segment is empty or
 * longer than `maxSegmentLength`.
 */
export const segmentsOf = (text: string): Array<string> => {
  const segments: Array<string> = []
  let current = ""
  let currentLength = 0
  const flush = () => {
    if (currentLength > 0) segments.push(current)
    current = ""
    currentLength = 0
  }
  const add = (piece: string, pieceLength: number) => {
    if (currentLength > 0 && currentLength + 1 + pieceLength > maxSegmentLength) flush()
    current = currentLength === 0 ? piece : `${current}\n${piece}`
    currentLength += (currentLength === 0 ? 0 : 1) + pieceLength
  }
  for (const raw of text.split(/\n\s*\n|\r\n\s*\r\n/u)) {
    const paragraph = raw.replace(/[ \t\f\v\r\u00a0]+/gu, " ").replace(/ ?\n ?/gu, "\n").trim()
    if (paragraph === "") continue
    const length = lengthOf(paragraph)
    if (length <= maxSegmentLength) {
      add(paragraph, length)
      continue
    }
    for (const sentence of sentences(paragraph)) {
      const sentenceLength = lengthOf(sentence)
      if (sentenceLength <= maxSegmentLength) add(sentence, sentenceLength)
      else for (const piece of cut(sentence)) add(piece, lengthOf(piece))
    }
  }
  flush()
  return segments
}
