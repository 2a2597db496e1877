/**
 * BM25 as the library ranks segments: scores are finite, non-negative and deterministic, a segment with
 * no query term scores 0, more occurrences of a term rank higher, a rarer term weighs more, and a longer
 * segment with the same occurrences ranks lower.
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
        expect(score > 0).toBe(shares && Bm25.queryTerms(query).some((term) => segments[i]!.frequencies.has(term)))
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
})
