/**
 * Lexical relevance of text segments to a query: Okapi BM25 (k1 = 1.2, b = 0.75), with the idf of
 * Lucene's variant, `ln(1 + (N - n + 0.5) / (n + 0.5))`, which is never negative. Terms are the words of
 * a text (runs of letters and digits, lower-cased by Unicode rules). A segment's terms are counted once,
 * when it is indexed, each by a 53-bit key (`termKey`); a search counts document frequencies over the
 * segments it is given, so the score is relative to the files searched, as a search restricted by labels or
 * path sees them. A search runs in steps of bounded work (`scoring`).
 */
import { runAll, type Steps } from "./steps.js"

/** BM25's term-frequency saturation. */
export const k1 = 1.2

/** BM25's length normalization. */
export const b = 0.75

/** The most distinct terms of a query that are scored; the rest are ignored. */
export const maxQueryTerms = 64

/** The longest term kept, in UTF-16 code units; a longer word is cut to it. */
export const maxTermLength = 64

const wordPattern = /[\p{L}\p{N}]+/gu

/** The terms of a text, in order, with repeats. */
export const terms = (text: string): Array<string> => {
  const out: Array<string> = []
  for (const match of text.matchAll(wordPattern)) {
    const word = match[0].toLowerCase()
    out.push(word.length > maxTermLength ? word.slice(0, maxTermLength) : word)
  }
  return out
}

/**
 * The key of a term in the index: a 53-bit hash of it (cyrb53), a number held in 8 bytes whatever the
 * term's length. Two distinct terms share a key with a chance of about 2^-53 a pair.
 */
export const termKey = (term: string): number => {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

/**
 * A segment as the index keeps it, compactly: the keys of its distinct terms in ascending order, how often
 * each occurs (at the same place), and how many terms it has.
 */
export interface IndexedText {
  readonly keys: Float64Array
  readonly frequencies: Uint16Array
  readonly length: number
}

/** The bytes an indexed segment holds for each of its distinct terms: a key (8) and a frequency (2). */
export const bytesPerIndexedTerm = 10

/** The bytes an indexed segment holds besides its terms: its object and its two arrays, as V8 lays them out. */
export const indexedTextOverhead = 256

/** What an indexed segment holds in memory, in bytes, as the library counts it against its budget. */
export const indexBytes = (indexed: IndexedText): number =>
  indexedTextOverhead + indexed.keys.length * bytesPerIndexedTerm

/** Counts the terms of a text. */
export const index = (text: string): IndexedText => {
  const counts = new Map<number, number>()
  const all = terms(text)
  for (const term of all) {
    const key = termKey(term)
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const keys = Float64Array.from(counts.keys()).sort()
  const frequencies = new Uint16Array(keys.length)
  keys.forEach((key, i) => {
    frequencies[i] = Math.min(0xffff, counts.get(key)!)
  })
  return { keys, frequencies, length: all.length }
}

/** How often the term of `key` occurs in a segment (0 when not at all): a binary search of its keys. */
const frequencyOfKey = (indexed: IndexedText, key: number): number => {
  let low = 0
  let high = indexed.keys.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const found = indexed.keys[middle]!
    if (found === key) return indexed.frequencies[middle]!
    if (found < key) low = middle + 1
    else high = middle - 1
  }
  return 0
}

/** How often `term` occurs in a segment (0 when not at all). */
export const frequency = (indexed: IndexedText, term: string): number => frequencyOfKey(indexed, termKey(term))

/** The distinct terms of a query, at most `maxQueryTerms`. */
export const queryTerms = (query: string): ReadonlyArray<string> => [...new Set(terms(query))].slice(0, maxQueryTerms)

/**
 * The most lookups of a term in a segment that one step of scoring does (at least one segment a step): a
 * search gives way to other requests between steps, so none waits for more than a step, whatever the
 * library holds. A lookup is a binary search of a segment's keys (at most 1,000 of them).
 */
export const searchStepLookups = 8192

/** Scoring under way: its steps, how many lookups they did so far, and the scores once they are done. */
export interface Scoring extends Steps<Float64Array> {
  readonly lookups: () => number
}

/**
 * The BM25 score of each of `segments` for `query`, in their order, in steps of at most `stepLookups`
 * lookups: 0 for a segment that shares no term with the query, otherwise a positive finite number. A first
 * pass counts the segments holding each term, a second scores them. The same inputs give the same scores.
 */
export const scoring = (
  query: string,
  segments: ReadonlyArray<IndexedText>,
  stepLookups = searchStepLookups
): Scoring => {
  const wanted = queryTerms(query).map(termKey)
  const count = segments.length
  const scores = new Float64Array(count)
  const containing = wanted.map(() => 0)
  let idf: Array<number> = []
  let totalLength = 0
  let averageLength = 0
  let lookups = 0
  // the next segment of the first pass (from 0) and then of the second (from count)
  let at = wanted.length === 0 ? 2 * count : 0
  const count1 = (segment: IndexedText) => {
    totalLength += segment.length
    if (segment.length === 0) return
    wanted.forEach((key, i) => {
      if (frequencyOfKey(segment, key) > 0) containing[i]!++
    })
    lookups += wanted.length
  }
  const score2 = (segment: IndexedText, i: number) => {
    // a segment of no terms matches nothing; averageLength is then positive whenever a term can match
    if (segment.length === 0) return
    const norm = k1 * (1 - b + b * segment.length / averageLength)
    let score = 0
    wanted.forEach((key, t) => {
      const tf = frequencyOfKey(segment, key)
      if (tf > 0) score += idf[t]! * (tf * (k1 + 1)) / (tf + norm)
    })
    lookups += wanted.length
    scores[i] = score
  }
  const next = (): boolean => {
    const limit = lookups + stepLookups
    do {
      if (at >= 2 * count) return true
      if (at < count) {
        count1(segments[at]!)
        at++
        if (at === count) {
          averageLength = totalLength / count
          idf = containing.map((n) => Math.log(1 + (count - n + 0.5) / (n + 0.5)))
        }
      } else {
        score2(segments[at - count]!, at - count)
        at++
      }
    } while (lookups + wanted.length <= limit)
    return at >= 2 * count
  }
  return { next, result: () => scores, lookups: () => lookups }
}

/**
 * The BM25 score of each of `segments` for `query`, in their order, all at once (see `scoring`).
 */
export const scores = (query: string, segments: ReadonlyArray<IndexedText>): Array<number> =>
  Array.from(runAll(scoring(query, segments)))

/**
 * A BM25 score mapped into [0, 1): `s / (s + 1)`. It keeps the order of scores, and is what the service
 * shows as a result's `score` and compares with a similarity threshold.
 */
export const similarity = (score: number): number => score / (score + 1)
