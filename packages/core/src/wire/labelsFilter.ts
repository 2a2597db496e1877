/**
 * A library search's `labels_filter`: the real service's `QueryFilter` over a file's labels. It is one of
 * the OpenAPI's three shapes: a comparison of the labels (`{ $in: ["billing", "travel"] }`), a logical
 * operator over filters (`{ $and: [...] }`, `{ $or: [...] }`), or the comparison under the field's name
 * (`{ labels: { $eq: "billing" } }`). This module gives its type, the rules of its shape (the first broken
 * one with where it is, or none), and whether a file's labels satisfy it.
 *
 * @since 1.1.0
 */

/**
 * The comparisons of a file's labels: `$eq` (has the label), `$ne` (has not), `$in` (has one of them),
 * `$nin` (has none of them), `$all` (has every one). Several in one object must all hold.
 *
 * @since 1.1.0
 * @category models
 */
export interface LabelComparison {
  readonly $eq?: string | undefined
  readonly $ne?: string | undefined
  readonly $in?: ReadonlyArray<string> | undefined
  readonly $nin?: ReadonlyArray<string> | undefined
  readonly $all?: ReadonlyArray<string> | undefined
}

/**
 * A filter of files by their labels: a comparison, a logical operator over filters (`$and`: each holds,
 * `$or`: one holds), or a comparison under the field's name `labels`.
 *
 * @since 1.1.0
 * @category models
 */
export type LabelsFilter =
  | LabelComparison
  | { readonly $and: ReadonlyArray<LabelsFilter> }
  | { readonly $or: ReadonlyArray<LabelsFilter> }
  | { readonly labels: LabelComparison }

/**
 * The comparison operators, with whether each takes a list of labels (else one label).
 *
 * @since 1.1.0
 * @category tables
 */
export const labelComparisons = { $eq: false, $ne: false, $in: true, $nin: true, $all: true } as const

/**
 * The logical operators.
 *
 * @since 1.1.0
 * @category tables
 */
export const labelsFilterLogicalOperators = ["$and", "$or"] as const

/**
 * The field a comparison may be given under.
 *
 * @since 1.1.0
 * @category tables
 */
export const labelsFilterField = "labels"

/**
 * How deep filters nest (a logical operator inside another): at most 8 levels.
 *
 * @since 1.1.0
 * @category constants
 */
export const maxLabelsFilterDepth = 8

/**
 * The most labels and filters one `labels_filter` names between them: 256.
 *
 * @since 1.1.0
 * @category constants
 */
export const maxLabelsFilterTerms = 256

/**
 * A broken rule of a `labels_filter`: where (under the filter) and why.
 *
 * @since 1.1.0
 * @category models
 */
export interface LabelsFilterIssue {
  readonly path: ReadonlyArray<string | number>
  readonly message: string
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const operatorList = `${Object.keys(labelComparisons).join(", ")}, ${
  labelsFilterLogicalOperators.join(", ")
} or ${labelsFilterField}`

/**
 * The first broken rule of a `labels_filter`, or `undefined` when it is one: an object of one of the three
 * shapes, each label a string, each list an array, nested at most `maxLabelsFilterDepth` deep, with at
 * most `maxLabelsFilterTerms` labels and filters in all.
 *
 * @since 1.1.0
 * @category validation
 */
export const labelsFilterIssue = (value: unknown): LabelsFilterIssue | undefined => {
  let terms = 0
  const tooMany = (path: ReadonlyArray<string | number>): LabelsFilterIssue => ({
    path,
    message: `a labels_filter names at most ${maxLabelsFilterTerms} labels and filters`
  })
  const comparison = (
    value: Readonly<Record<string, unknown>>,
    path: ReadonlyArray<string | number>
  ): LabelsFilterIssue | undefined => {
    for (const [key, operand] of Object.entries(value)) {
      const takesList = (labelComparisons as Readonly<Record<string, boolean>>)[key]
      if (takesList === undefined) {
        return {
          path: [...path, key],
          message: `${key} is not a comparison: use ${Object.keys(labelComparisons).join(", ")}`
        }
      }
      if (!takesList) {
        if (typeof operand !== "string") return { path: [...path, key], message: `${key} compares one label, a string` }
        if (++terms > maxLabelsFilterTerms) return tooMany([...path, key])
        continue
      }
      if (!Array.isArray(operand)) return { path: [...path, key], message: `${key} takes a list of labels` }
      for (let i = 0; i < operand.length; i++) {
        if (typeof operand[i] !== "string") return { path: [...path, key, i], message: "a label is a string" }
        if (++terms > maxLabelsFilterTerms) return tooMany([...path, key, i])
      }
    }
    return undefined
  }
  const filter = (
    value: unknown,
    path: ReadonlyArray<string | number>,
    depth: number
  ): LabelsFilterIssue | undefined => {
    if (!isRecord(value)) return { path, message: `a labels filter is an object with ${operatorList}` }
    if (++terms > maxLabelsFilterTerms) return tooMany(path)
    const keys = Object.keys(value)
    if (keys.length === 0) return { path, message: `a labels filter needs one of ${operatorList}` }
    const logical = keys.find((key) => key === "$and" || key === "$or")
    const field = keys.includes(labelsFilterField)
    if (logical !== undefined || field) {
      if (keys.length > 1) {
        const key = logical ?? labelsFilterField
        return { path, message: `${key} stands alone in its object: put other conditions in a $and` }
      }
    }
    if (logical !== undefined) {
      const operands = value[logical]
      if (!Array.isArray(operands) || operands.length === 0) {
        return { path: [...path, logical], message: `${logical} takes a non-empty list of filters` }
      }
      if (depth >= maxLabelsFilterDepth) {
        return { path: [...path, logical], message: `labels filters nest at most ${maxLabelsFilterDepth} deep` }
      }
      for (let i = 0; i < operands.length; i++) {
        const issue = filter(operands[i], [...path, logical, i], depth + 1)
        if (issue !== undefined) return issue
      }
      return undefined
    }
    if (field) {
      const inner = value[labelsFilterField]
      if (!isRecord(inner) || Object.keys(inner).length === 0) {
        return {
          path: [...path, labelsFilterField],
          message: "labels takes a comparison, such as { $eq: \"billing\" }"
        }
      }
      return comparison(inner, [...path, labelsFilterField])
    }
    return comparison(value, path)
  }
  return filter(value, [], 1)
}

/**
 * Whether a value is a `labels_filter` (`labelsFilterIssue` finds no broken rule).
 *
 * @since 1.1.0
 * @category validation
 */
export const isLabelsFilter = (value: unknown): value is LabelsFilter => labelsFilterIssue(value) === undefined

const compares = (comparison: LabelComparison, has: ReadonlySet<string>): boolean =>
  (comparison.$eq === undefined || has.has(comparison.$eq)) &&
  (comparison.$ne === undefined || !has.has(comparison.$ne)) &&
  (comparison.$in === undefined || comparison.$in.some((label) => has.has(label))) &&
  (comparison.$nin === undefined || !comparison.$nin.some((label) => has.has(label))) &&
  (comparison.$all === undefined || comparison.$all.every((label) => has.has(label)))

/**
 * Whether a file with `labels` passes a (valid) `labels_filter`.
 *
 * @since 1.1.0
 * @category matching
 */
export const labelsFilterMatches = (filter: LabelsFilter, labels: ReadonlyArray<string>): boolean => {
  const has = new Set(labels)
  const holds = (filter: LabelsFilter): boolean =>
    "$and" in filter
      ? filter.$and.every(holds)
      : "$or" in filter
      ? filter.$or.some(holds)
      : "labels" in filter
      ? compares(filter.labels, has)
      : compares(filter, has)
  return holds(filter)
}
