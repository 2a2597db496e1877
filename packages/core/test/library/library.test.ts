/**
 * The library store: its bounds (files, bytes, file size, distinct labels), statuses driven by the time
 * given, filters (file ids, labels AND/OR, path prefix) and search restricted to what the filters allow.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeIds } from "../../src/reference/ids.js"
import { labelsMatch, makeLibrary, matches } from "../../src/reference/library/library.js"
import { maxLibraryLabels } from "../../src/wire/library.js"

const bytes = (text: string) => new TextEncoder().encode(text)
const make = (limits = { maxFiles: 3, maxLibraryBytes: 100, maxFileBytes: 50 }) =>
  makeLibrary({ ids: makeIds(1), limits, processingDuration: 10 })

describe("the library store", () => {
  it("refuses files past its bounds with TooLarge, and keeps what fits", () => {
    const library = make()
    expect(library.upload({ name: "a.txt", bytes: new Uint8Array(51) }, 0)._tag).toBe("TooLarge")
    expect(library.upload({ name: "a.txt", bytes: new Uint8Array(50) }, 0)._tag).toBe("Done")
    expect(library.upload({ name: "b.txt", bytes: new Uint8Array(50) }, 0)._tag).toBe("Done")
    expect(library.upload({ name: "c.txt", bytes: new Uint8Array(1) }, 0)._tag).toBe("TooLarge")
    const small = make({ maxFiles: 1, maxLibraryBytes: 100, maxFileBytes: 50 })
    small.upload({ name: "a.txt", bytes: new Uint8Array(1) }, 0)
    expect(small.upload({ name: "b.txt", bytes: new Uint8Array(1) }, 0)._tag).toBe("TooLarge")
    expect(library.list({}, 0).length).toBe(2)
  })

  it("holds at most maxLibraryLabels distinct labels; removing a file frees its labels", () => {
    const library = make({ maxFiles: 100, maxLibraryBytes: 1000, maxFileBytes: 10 })
    const labels = Array.from({ length: maxLibraryLabels }, (_, i) => `l${i}`)
    const first = library.upload({ name: "a.txt", bytes: bytes("a"), labels }, 0)
    expect(first._tag).toBe("Done")
    const more = library.upload({ name: "b.txt", bytes: bytes("b"), labels: ["new"] }, 0)
    expect(more._tag).toBe("Invalid")
    expect(library.upload({ name: "b.txt", bytes: bytes("b"), labels: ["l1"] }, 0)._tag).toBe("Done")
    if (first._tag !== "Done") return
    expect(library.remove(first.value.fileId, 100)).toBe("Deleted")
    expect(library.upload({ name: "c.txt", bytes: bytes("c"), labels: ["new"] }, 100)._tag).toBe("Done")
  })

  it("a file is PROCESSING for the processing duration, then PROCESSED, or PROCESSING_FAILED when unreadable", () => {
    const library = make()
    const text = library.upload({ name: "a.txt", bytes: bytes("hello") }, 0)
    const json = library.upload({ name: "b.json", bytes: bytes("{") }, 0)
    if (text._tag !== "Done" || json._tag !== "Done") throw new Error("not stored")
    expect(library.lookup(text.value.fileId, 9)?.status).toBe("PROCESSING")
    expect(library.remove(text.value.fileId, 9)).toBe("Processing")
    expect(library.lookup(text.value.fileId, 10)?.status).toBe("PROCESSED")
    expect(library.lookup(json.value.fileId, 10)).toMatchObject({ status: "PROCESSING_FAILED", errorCode: 422 })
  })

  it("labels match every label (AND, the default) or any (OR); no labels match every file", () =>
    fc.assert(fc.property(
      fc.array(fc.constantFrom("a", "b", "c", "d")),
      fc.array(fc.constantFrom("a", "b", "c", "d")),
      (fileLabels, wanted) => {
        expect(labelsMatch(fileLabels, wanted, "AND")).toBe(wanted.every((label) => fileLabels.includes(label)))
        expect(labelsMatch(fileLabels, wanted, undefined)).toBe(labelsMatch(fileLabels, wanted, "AND"))
        expect(labelsMatch(fileLabels, wanted, "OR")).toBe(
          wanted.length === 0 || wanted.some((label) => fileLabels.includes(label))
        )
      }
    )))

  it("a path matches as a prefix, file ids as a set", () => {
    const file = { fileId: "f1", labels: [], path: "pets/dogs/setter" }
    expect(matches(file, { path: "pets/" })).toBe(true)
    expect(matches(file, { path: "dogs/" })).toBe(false)
    expect(matches(file, { fileIds: ["f2"] })).toBe(false)
    expect(matches(file, { fileIds: ["f2", "f1"], path: "pets" })).toBe(true)
  })

  it("search looks only at processed files the filters allow, best first, at most maxSegments", () =>
    fc.assert(fc.property(
      fc.array(fc.record({ label: fc.constantFrom("x", "y"), words: fc.array(fc.constantFrom("tea", "cup", "pot")) }), {
        maxLength: 8
      }),
      fc.constantFrom("x", "y"),
      fc.integer({ min: 1, max: 5 }),
      (uploads, label, maxSegments) => {
        const library = makeLibrary({ ids: makeIds(2), processingDuration: 10 })
        const labelOf = new Map<string, string>()
        for (const [i, upload] of uploads.entries()) {
          const stored = library.upload({
            name: `${i}.txt`,
            bytes: bytes(upload.words.join(" ") || "empty"),
            labels: [upload.label]
          }, 0)
          if (stored._tag === "Done") labelOf.set(stored.value.fileId, upload.label)
        }
        const search = { query: "tea", filters: [{ labels: [label] }], maxSegments }
        expect(library.searchHits(search, 9)).toEqual([])
        const hits = library.searchHits(search, 10)
        expect(hits.length).toBeLessThanOrEqual(maxSegments)
        for (const hit of hits) {
          expect(labelOf.get(hit.fileId)).toBe(label)
          expect(hit.text).toContain("tea")
        }
        const scores = hits.map((hit) => hit.score)
        expect(scores).toEqual([...scores].sort((a, b) => b - a))
        expect(library.searchHits(search, 10)).toEqual(hits)
      }
    )))
})
