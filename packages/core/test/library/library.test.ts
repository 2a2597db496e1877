/**
 * The library store: its bounds (files, bytes with the index, file size, distinct labels, the bytes every
 * library shares, a search's answer), statuses driven by the time given, filters (file ids, labels AND/OR,
 * path prefix) and search restricted to what the filters allow.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeByteBudget } from "../../src/reference/byteBudget.js"
import { makeIds } from "../../src/reference/ids.js"
import { jsonBytes } from "../../src/reference/library/answerBytes.js"
import * as Bm25 from "../../src/reference/library/bm25.js"
import { heldBytesOf, labelsMatch, makeLibrary, matches } from "../../src/reference/library/library.js"
import { segmentsOf } from "../../src/reference/library/segments.js"
import { runAll } from "../../src/reference/library/steps.js"
import { maxLibraryLabels } from "../../src/wire/library.js"

const bytes = (text: string) => new TextEncoder().encode(text)
// two files of 50 bytes, each one segment with its index
const make = (
  limits = {
    maxFiles: 3,
    maxLibraryBytes: 2 * (50 + Bm25.indexedTextOverhead),
    maxFileBytes: 50,
    maxSearchAnswerBytes: 4096
  }
) => makeLibrary({ ids: makeIds(1), limits, processingDuration: 10 })

describe("the library store", () => {
  it("refuses files past its bounds with TooLarge, and keeps what fits", () => {
    const library = make()
    expect(library.upload({ name: "a.txt", bytes: new Uint8Array(51) }, 0)._tag).toBe("TooLarge")
    expect(library.upload({ name: "a.txt", bytes: new Uint8Array(50) }, 0)._tag).toBe("Done")
    expect(library.upload({ name: "b.txt", bytes: new Uint8Array(50) }, 0)._tag).toBe("Done")
    expect(library.upload({ name: "c.txt", bytes: new Uint8Array(1) }, 0)._tag).toBe("TooLarge")
    const small = make({ maxFiles: 1, maxLibraryBytes: 1000, maxFileBytes: 50, maxSearchAnswerBytes: 4096 })
    small.upload({ name: "a.txt", bytes: new Uint8Array(1) }, 0)
    expect(small.upload({ name: "b.txt", bytes: new Uint8Array(1) }, 0)._tag).toBe("TooLarge")
    expect(library.list({}, 0).length).toBe(2)
  })

  it("holds at most maxLibraryLabels distinct labels; removing a file frees its labels", () => {
    const library = make({ maxFiles: 100, maxLibraryBytes: 100_000, maxFileBytes: 10, maxSearchAnswerBytes: 4096 })
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
        expect(runAll(library.searchHits(search, 9)).hits).toEqual([])
        const { hits } = runAll(library.searchHits(search, 10))
        expect(hits.length).toBeLessThanOrEqual(maxSegments)
        for (const hit of hits) {
          expect(labelOf.get(hit.fileId)).toBe(label)
          expect(hit.text).toContain("tea")
        }
        const scores = hits.map((hit) => hit.score)
        expect(scores).toEqual([...scores].sort((a, b) => b - a))
        expect(runAll(library.searchHits(search, 10)).hits).toEqual(hits)
      }
    )))

  it("a file takes its bytes and its index's from its library and the budget all libraries share, and gives them back", () =>
    fc.assert(fc.property(
      fc.array(fc.record({ tenant: fc.integer({ min: 0, max: 2 }), words: fc.integer({ min: 0, max: 400 }) }), {
        maxLength: 20
      }),
      (uploads) => {
        const limits = { maxFiles: 100, maxLibraryBytes: 8000, maxFileBytes: 4000, maxSearchAnswerBytes: 4096 }
        const budget = makeByteBudget(12_000)
        const libraries = [0, 1, 2].map((i) => makeLibrary({ ids: makeIds(i), limits, processingDuration: 0, budget }))
        const held = [0, 0, 0]
        const costs = new Map<string, number>()
        for (const [i, { tenant, words }] of uploads.entries()) {
          // distinct words: each one a term of the index
          const text = Array.from({ length: words }, (_, w) => `w${i}x${w}`).join(" ")
          const cost = heldBytesOf(bytes(text).length, segmentsOf(text).map(Bm25.index))
          const fits = held[tenant]! + cost <= limits.maxLibraryBytes && budget.held() + cost <= budget.limit
          const result = libraries[tenant]!.upload({ name: `${i}.txt`, bytes: bytes(text) }, 0)
          expect(result._tag).toBe(fits ? "Done" : "TooLarge")
          if (result._tag === "Done") {
            held[tenant]! += cost
            if (tenant === 0) costs.set(result.value.fileId, cost)
          }
          expect(budget.held()).toBe(held[0]! + held[1]! + held[2]!)
        }
        for (const [fileId, cost] of costs) {
          expect(libraries[0]!.remove(fileId, 1)).toBe("Deleted")
          held[0]! -= cost
        }
        libraries[1]!.clear()
        expect(budget.held()).toBe(held[2]!)
        libraries.forEach((library) => library.clear())
        expect(budget.held()).toBe(0)
      }
    )))

  it("full_doc shows each file once; an answer holds at most maxSearchAnswerBytes of JSON, truncated when cut", () =>
    fc.assert(fc.property(
      fc.array(fc.array(fc.constantFrom("tea \u0001", "tea cup", "pot \"é\"", "😀 tea"), { maxLength: 400 }), {
        minLength: 1,
        maxLength: 4
      }),
      fc.constantFrom("full_doc" as const, "add_neighbors" as const, "segments" as const),
      // at least an answer with no results
      fc.integer({ min: 100, max: 20_000 }),
      (files, strategy, maxSearchAnswerBytes) => {
        const limits = { maxFiles: 10, maxLibraryBytes: 1 << 24, maxFileBytes: 1 << 20, maxSearchAnswerBytes }
        const library = makeLibrary({ ids: makeIds(3), limits, processingDuration: 0 })
        for (const [i, words] of files.entries()) {
          library.upload({ name: `${i}.txt`, bytes: bytes(words.join("\n\n")) }, 0)
        }
        const answer = runAll(library.search({ query: "tea", retrievalStrategy: strategy, maxSegments: 100 }, 0))
        expect(jsonBytes(answer)).toBeLessThanOrEqual(maxSearchAnswerBytes)
        const results = answer["results"] as ReadonlyArray<{ readonly fileId: string }>
        if (strategy === "full_doc") expect(new Set(results.map((hit) => hit.fileId)).size).toBe(results.length)
        const unbounded = makeLibrary({
          ids: makeIds(3),
          limits: { ...limits, maxSearchAnswerBytes: 1 << 30 },
          processingDuration: 0
        })
        for (const [i, words] of files.entries()) {
          unbounded.upload({ name: `${i}.txt`, bytes: bytes(words.join("\n\n")) }, 0)
        }
        const whole = runAll(unbounded.search({ query: "tea", retrievalStrategy: strategy, maxSegments: 100 }, 0))
        // the bound counts `,"truncated":true` whether or not it is written
        expect(answer["truncated"] === true).toBe(
          jsonBytes(whole) + ",\"truncated\":true".length > maxSearchAnswerBytes
        )
        if (answer["truncated"] !== true) expect(answer).toEqual(whole)
      }
    )))
})
