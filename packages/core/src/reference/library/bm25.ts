/**
 * Lexical relevance of text segments to a query: Okapi BM25 (k1 = 1.2, b = 0.75), with the idf of
 * Lucene's variant, `ln(1 + (N - n + 0.5) / (n + 0.5))`, which is never negative. Terms are the words of
 * a text (runs of letters and digits, lower-cased by Unicode rules). A segment's terms are counted once,
 * when it is indexed; a search counts document frequencies over the segments it is given, so the score is
 * relative to the files searched, as a search restricted by labels or path sees them.
 */

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

/** A segment as the index keeps it: how often each term occurs, and how many terms it has. */
export interface IndexedText {
  readonly frequencies: ReadonlyMap<string, number>
  readonly length: number
}

/** Counts the terms of a text. */
export const index = (text: string): IndexedText => {
  const frequencies = new Map<string, number>()
  const all = terms(text)
  for (const term of all) frequencies.set(term, (frequencies.get(term) ?? 0) + 1)
  return { frequencies, length: all.length }
}

/** The distinct terms of a query, at most `maxQueryTerms`. */
export const queryTerms = (query: string): ReadonlyArray<string> => [...new Set(terms(query))].slice(0, maxQueryTerms)

/**
 * The BM25 score of each of `segments` for `query`, in their order: 0 for a segment that shares no term
 * with the query, otherwise a positive finite number. The same inputs give the same scores.
 */
export const scores = (query: string, segments: ReadonlyArray<IndexedText>): Array<number> => {
  const wanted = queryTerms(query)
  const count = segments.length
  if (count === 0 || wanted.length === 0) return segments.map(() => 0)
  let totalLength = 0
  for (const segment of segments) totalLength += segment.length
  const averageLength = totalLength / count
  const idf = wanted.map((term) => {
    let containing = 0
    for (const segment of segments) if (segment.frequencies.has(term)) containing++
    return Math.log(1 + (count - containing + 0.5) / (containing + 0.5))
  })
  return segments.map((segment) => {
    // a segment of no terms matches nothing; averageLength is then positive whenever a term can match
    if (segment.length === 0) return 0
    const norm = k1 * (1 - b + b * segment.length / averageLength)
    let score = 0
    wanted.forEach((term, i) => {
      const tf = segment.frequencies.get(term)
      if (tf !== undefined) score += idf[i]! * (tf * (k1 + 1)) / (tf + norm)
    })
    return score
  })
}

/**
 * A BM25 score mapped into [0, 1): `s / (s + 1)`. It keeps the order of scores, and is what the service
 * shows as a result's `score` and compares with a similarity threshold.
 */
export const similarity = (score: number): number => score / (score + 1)
