/**
 * A library's files after their upload: their bytes given back as uploaded (`download`, with the type and
 * the name of the attachment), the text it extracted (`parsed`, once processed), the data source kept and
 * shown, and a search's `labels_filter` applied among the filters.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeIds } from "../../src/reference/ids.js"
import { attachmentDisposition, makeLibrary, maxFieldLength } from "../../src/reference/library/library.js"
import { runAll } from "../../src/reference/library/steps.js"

const encoder = new TextEncoder()
const make = () => makeLibrary({ ids: makeIds(7), processingDuration: 10 })

describe("a library's files", () => {
  it("download gives back every file's bytes as uploaded, with its type; an unknown id is undefined", () => {
    fc.assert(fc.property(
      fc.uint8Array({ maxLength: 2048 }),
      fc.constantFrom("a.txt", "b.md", "c.html", "d.json", "e.pdf", "f.docx"),
      (bytes, name) => {
        const library = make()
        const upload = library.upload({ name, bytes }, 0)
        expect(upload._tag).toBe("Done")
        const fileId = upload._tag === "Done" ? upload.value.fileId : ""
        const download = library.download(fileId)!
        expect(download.bytes).toEqual(bytes)
        expect(download.name).toBe(name)
        expect(download.contentType).toMatch(/^(text|application)\//)
        expect(library.download("no-such-file")).toBeUndefined()
      }
    ))
  })

  it("parsed is NotReady while PROCESSING or when the text could not be read, then the segments' text", () => {
    const library = make()
    const text = "Green tea is steeped at 80 degrees.\n\nBlack tea wants boiling water."
    const upload = library.upload({ name: "tea.md", bytes: encoder.encode(text) }, 0)
    const fileId = upload._tag === "Done" ? upload.value.fileId : ""
    expect(library.parsed(fileId, 5)).toMatchObject({ _tag: "NotReady", message: /PROCESSING/ })
    const parsed = library.parsed(fileId, 10)
    expect(parsed._tag).toBe("Parsed")
    if (parsed._tag !== "Parsed") return
    expect(parsed.value).toMatchObject({ fileId, name: "tea.md", fileType: "md" })
    expect(parsed.value.segments.map((segment) => segment.order)).toEqual(
      parsed.value.segments.map((_, i) => i)
    )
    expect(parsed.value.text).toBe(parsed.value.segments.map((segment) => segment.text).join("\n\n"))
    expect(parsed.value.text).toContain("Black tea wants boiling water.")
    const broken = library.upload({ name: "bad.json", bytes: encoder.encode("{") }, 0)
    const brokenId = broken._tag === "Done" ? broken.value.fileId : ""
    expect(library.parsed(brokenId, 10)).toMatchObject({ _tag: "NotReady", message: /not valid JSON/ })
    expect(library.parsed("no-such-file", 10)).toEqual({ _tag: "NotFound" })
  })

  it("the data source is kept and shown as dataSource; one longer than maxFieldLength is refused", () => {
    fc.assert(fc.property(fc.string({ maxLength: 2 * maxFieldLength }), (dataSource) => {
      const library = make()
      const upload = library.upload({ name: "a.txt", bytes: encoder.encode("x"), dataSource }, 0)
      if (dataSource.length > maxFieldLength) {
        expect(upload).toMatchObject({ _tag: "Invalid", issues: [{ loc: ["body", "data_source"] }] })
      } else {
        const fileId = upload._tag === "Done" ? upload.value.fileId : ""
        expect(library.lookup(fileId, 0)?.["dataSource"]).toBe(dataSource)
      }
    }))
  })

  it("a search keeps only the files its labels_filter allows", () => {
    const library = make()
    const ids: Record<string, string> = {}
    for (
      const [name, labels] of [["a.txt", ["billing"]], ["b.txt", ["travel"]], ["c.txt", ["billing", "policy"]]] as const
    ) {
      const upload = library.upload({ name, bytes: encoder.encode("refunds are paid"), labels: [...labels] }, 0)
      ids[name] = upload._tag === "Done" ? upload.value.fileId : ""
    }
    const found = (labels_filter: Parameters<typeof library.search>[0]["labels_filter"]) => {
      const answer = runAll(library.search({ query: "refunds", labels_filter }, 10)) as {
        results: ReadonlyArray<{ fileName: string }>
      }
      return answer.results.map((result) => result.fileName).sort()
    }
    expect(found(undefined)).toEqual(["a.txt", "b.txt", "c.txt"])
    expect(found({ $eq: "billing" })).toEqual(["a.txt", "c.txt"])
    expect(found({ labels: { $nin: ["billing"] } })).toEqual(["b.txt"])
    expect(found({ $and: [{ $eq: "billing" }, { $ne: "policy" }] })).toEqual(["a.txt"])
    expect(found({ $or: [{ $eq: "travel" }, { $all: ["billing", "policy"] }] })).toEqual(["b.txt", "c.txt"])
  })

  it("an attachment's Content-Disposition names the file in ASCII and exactly (RFC 6266)", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (name) => {
      const header = attachmentDisposition(name)
      expect(header).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%\-_.!~]*$/)
      expect(decodeURIComponent(header.slice(header.indexOf("''") + 2))).toBe(name)
      const ascii = /filename="([^"]*)"/.exec(header)![1]!
      expect(ascii.length).toBe(name.length)
    }))
  })
})
