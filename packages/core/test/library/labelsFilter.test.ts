/**
 * A library search's `labels_filter`: the rules of its shape (every broken rule found, at its path) and what
 * it keeps, checked against a plain reading of each operator.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  type LabelComparison,
  type LabelsFilter,
  labelsFilterIssue,
  labelsFilterMatches,
  maxLabelsFilterDepth,
  maxLabelsFilterTerms
} from "../../src/wire/labelsFilter.js"

const label = fc.constantFrom("billing", "travel", "policy", "tea", "")
const labels = fc.uniqueArray(label, { maxLength: 4 })

const comparison: fc.Arbitrary<LabelComparison> = fc.record(
  { $eq: label, $ne: label, $in: labels, $nin: labels, $all: labels },
  { requiredKeys: [] }
).filter((value) => Object.keys(value).length > 0)

const filter: fc.Arbitrary<LabelsFilter> = fc.letrec<{ filter: LabelsFilter }>((tie) => ({
  filter: fc.oneof(
    { maxDepth: 3, depthIdentifier: "filter" },
    comparison,
    comparison.map((labels) => ({ labels })),
    fc.array(tie("filter"), { minLength: 1, maxLength: 3 }).map(($and) => ({ $and })),
    fc.array(tie("filter"), { minLength: 1, maxLength: 3 }).map(($or) => ({ $or }))
  )
})).filter

/** What a filter keeps, read operator by operator. */
const keeps = (filter: LabelsFilter, fileLabels: ReadonlyArray<string>): boolean => {
  if ("$and" in filter) return filter.$and.every((inner) => keeps(inner, fileLabels))
  if ("$or" in filter) return filter.$or.some((inner) => keeps(inner, fileLabels))
  const c: LabelComparison = "labels" in filter ? filter.labels : filter
  const results: Array<boolean> = []
  if (c.$eq !== undefined) results.push(fileLabels.includes(c.$eq))
  if (c.$ne !== undefined) results.push(!fileLabels.includes(c.$ne))
  if (c.$in !== undefined) results.push(c.$in.some((l) => fileLabels.includes(l)))
  if (c.$nin !== undefined) results.push(c.$nin.every((l) => !fileLabels.includes(l)))
  if (c.$all !== undefined) results.push(c.$all.every((l) => fileLabels.includes(l)))
  return results.every(Boolean)
}

/** A filter nested `depth` deep. */
const nested = (depth: number): LabelsFilter => depth <= 1 ? { $eq: "tea" } : { $and: [nested(depth - 1)] }

describe("labels_filter", () => {
  it("every filter of the three shapes is accepted, and keeps what its operators say", () => {
    fc.assert(fc.property(filter, labels, (value, fileLabels) => {
      expect(labelsFilterIssue(value)).toBeUndefined()
      expect(labelsFilterMatches(value, fileLabels)).toBe(keeps(value, fileLabels))
    }))
  })

  it("$or and $and are a disjunction and a conjunction; under `labels` a comparison means the same", () => {
    fc.assert(fc.property(filter, filter, comparison, labels, (a, b, c, fileLabels) => {
      expect(labelsFilterMatches({ $or: [a, b] }, fileLabels)).toBe(
        labelsFilterMatches(a, fileLabels) || labelsFilterMatches(b, fileLabels)
      )
      expect(labelsFilterMatches({ $and: [a, b] }, fileLabels)).toBe(
        labelsFilterMatches(a, fileLabels) && labelsFilterMatches(b, fileLabels)
      )
      expect(labelsFilterMatches({ labels: c }, fileLabels)).toBe(labelsFilterMatches(c, fileLabels))
    }))
  })

  it("a broken rule anywhere in a valid filter is found, at its path", () => {
    const mistakes: ReadonlyArray<readonly [unknown, string | RegExp]> = [
      [7, /is an object/],
      [null, /is an object/],
      [["tea"], /is an object/],
      [{}, /needs one of/],
      [{ $like: "tea" }, /\$like is not a comparison/],
      [{ $eq: 3 }, /compares one label, a string/],
      [{ $in: "tea" }, /takes a list of labels/],
      [{ $in: ["tea", 4] }, /a label is a string/],
      [{ $and: [] }, /non-empty list of filters/],
      [{ $or: { $eq: "tea" } }, /non-empty list of filters/],
      [{ $and: [{ $eq: "tea" }], $eq: "x" }, /stands alone/],
      [{ labels: "tea" }, /labels takes a comparison/],
      [{ labels: { $eq: "tea" }, $ne: "x" }, /stands alone/]
    ]
    fc.assert(fc.property(
      filter,
      fc.constantFrom(...mistakes),
      fc.nat(),
      (valid, [mistake, message], seed) => {
        // the mistake as the last operand of a `$or` around the valid filter, so the path is known
        const wrapped = seed % 2 === 0 ? { $or: [valid, mistake] } : { $and: [valid, { $or: [mistake] }] }
        const issue = labelsFilterIssue(wrapped)
        expect(issue?.message).toMatch(message)
        expect(issue?.path.slice(0, seed % 2 === 0 ? 2 : 4)).toEqual(
          seed % 2 === 0 ? ["$or", 1] : ["$and", 1, "$or", 0]
        )
      }
    ))
  })

  it("filters nest at most maxLabelsFilterDepth deep and name at most maxLabelsFilterTerms terms", () => {
    expect(labelsFilterIssue(nested(maxLabelsFilterDepth))).toBeUndefined()
    expect(labelsFilterIssue(nested(maxLabelsFilterDepth + 1))?.message).toMatch(/nest at most 8 deep/)
    fc.assert(fc.property(fc.integer({ min: 1, max: 3 * maxLabelsFilterTerms }), (count) => {
      const value = { $in: Array.from({ length: count }, (_, i) => `label ${i}`) }
      // the filter itself counts as one term
      expect(labelsFilterIssue(value) === undefined).toBe(count + 1 <= maxLabelsFilterTerms)
    }))
  })
})
