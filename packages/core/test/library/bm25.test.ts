/**
 * BM25 as the library ranks segments: scores are finite, non-negative and deterministic, a segment with
 * no query term scores 0, more occurrences of a term rank higher, a rarer term weighs more, and a longer
 * segment with the same occurrences ranks lower. The index holds a key and a count per distinct term, and
 * scoring runs in steps of at most `searchStepLookups` lookups.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Bm25 from "../../src/reference/library/bm25.js"

const word = fc.stringMatching(/^[a-z]{1,8}$/)
const text = fc.array(word, { maxLength: 40 }).map((words) => words.join(" "))
const corpus = fc.array(text, { minLength: 1, maxLength: 12 })

describe("BM25", () => {
  it("scores are finite, non-negative, the same on every call, and 0 without a shared term", () =>
    fc.assert(fc.property(text, corpus, (query, texts) => {
      const segments = texts.map(Bm25.index)
      const scores = Bm25.scores(query, segments)
      expect(Bm25.scores(query, texts.map(Bm25.index))).toEqual(scores)
      const wanted = new Set(Bm25.terms(query))
      scores.forEach((score, i) => {
        expect(Number.isFinite(score)).toBe(true)
        expect(score).toBeGreaterThanOrEqual(0)
        const shares = Bm25.terms(texts[i]!).some((term) => wanted.has(term))
        expect(score > 0).toBe(shares && Bm25.queryTerms(query).some((term) => Bm25.frequency(segments[i]!, term) > 0))
      })
    })))

  it("a segment with more occurrences of a rare term ranks higher than one of the same length with fewer", () =>
    fc.assert(fc.property(
      fc.array(text, { maxLength: 8 }),
      fc.integer({ min: 0, max: 5 }),
      fc.integer({ min: 1, max: 5 }),
      (others, fewer, more) => {
        const length = 12
        const segment = (count: number) =>
          [...Array(count).fill("zyzzyva"), ...Array(length - count).fill("filler")].join(" ")
        const texts = [segment(fewer), segment(fewer + more), ...others]
        const [low, high] = Bm25.scores("zyzzyva", texts.map(Bm25.index))
        expect(high!).toBeGreaterThan(low!)
      }
    )))

  it("a rarer term weighs more: a segment holding the rare term outranks one holding the common one", () =>
    fc.assert(fc.property(fc.integer({ min: 2, max: 10 }), (common) => {
      const texts = ["alpha filler", "beta filler", ...Array(common).fill("beta other")]
      const [rare, usual] = Bm25.scores("alpha beta", texts.map(Bm25.index))
      expect(rare!).toBeGreaterThan(usual!)
    })))

  it("with the same occurrences, a longer segment ranks lower", () =>
    fc.assert(fc.property(fc.integer({ min: 1, max: 30 }), (extra) => {
      const texts = ["needle a b", `needle a b ${Array(extra).fill("pad").join(" ")}`, "other"]
      const [short, long] = Bm25.scores("needle", texts.map(Bm25.index))
      expect(short!).toBeGreaterThan(long!)
    })))

  it("similarity keeps the order of scores and lies in [0, 1)", () =>
    fc.assert(fc.property(
      fc.double({ min: 0, max: 1e6, noNaN: true }),
      fc.double({ min: 0, max: 1e6, noNaN: true }),
      (a, b) => {
        expect(Bm25.similarity(a)).toBeGreaterThanOrEqual(0)
        expect(Bm25.similarity(a)).toBeLessThan(1)
        if (a < b) expect(Bm25.similarity(a)).toBeLessThanOrEqual(Bm25.similarity(b))
      }
    )))

  it("terms are case-folded words of letters and digits, cut to their bound; a query keeps a bounded set", () => {
    expect(Bm25.terms("Refund, REFUND! über-Straße 42")).toEqual(["refund", "refund", "über", "straße", "42"])
    expect(Bm25.terms("x".repeat(500))).toEqual(["x".repeat(Bm25.maxTermLength)])
    expect(Bm25.queryTerms(Array.from({ length: 500 }, (_, i) => `w${i}`).join(" ")).length).toBe(Bm25.maxQueryTerms)
  })

  it("a segment's index holds each distinct term once, with its count, and says what it holds in bytes", () =>
    fc.assert(fc.property(text, (segment) => {
      const indexed = Bm25.index(segment)
      const counts = new Map<string, number>()
      for (const term of Bm25.terms(segment)) counts.set(term, (counts.get(term) ?? 0) + 1)
      expect(indexed.keys.length).toBe(counts.size)
      for (const [term, count] of counts) expect(Bm25.frequency(indexed, term)).toBe(count)
      expect(Bm25.frequency(indexed, "notaword0")).toBe(0)
      expect(Bm25.indexBytes(indexed)).toBe(Bm25.indexedTextOverhead + counts.size * Bm25.bytesPerIndexedTerm)
    })))

  it("scoring runs in steps of at most the step's lookups, and gives the scores of a search done at once", () =>
    fc.assert(fc.property(text, corpus, fc.integer({ min: 1, max: 200 }), (query, texts, stepLookups) => {
      const segments = texts.map(Bm25.index)
      const terms = Bm25.queryTerms(query).length
      const scoring = Bm25.scoring(query, segments, stepLookups)
      let steps = 0
      let before = 0
      let done = false
      while (!done) {
        done = scoring.next()
        steps++
        // one segment at least a step: a step passes the bound only when one segment's terms do
        expect(scoring.lookups() - before).toBeLessThanOrEqual(Math.max(stepLookups, terms))
        before = scoring.lookups()
      }
      const nonEmpty = segments.filter((segment) => segment.length > 0).length
      expect(scoring.lookups()).toBe(2 * nonEmpty * terms)
      expect(steps).toBeLessThanOrEqual(2 * segments.length + 1)
      expect(Array.from(scoring.result())).toEqual(Bm25.scores(query, segments))
    })))
})
