/**
 * Validating a value the way the client does (every issue, unknown fields kept) and checking what comes out.
 */
import {
  expect,
  isFailure,
  isSuccess,
  type RequestSchema,
  type RequestType,
  validateRequest as validate
} from "@studio-effect/line"
import type { Issue } from "@studio-effect/line/src/internal/schema/issues.js"

export { type RequestSchema, validate }

/**
 * A message a person can act on: it says something, is short enough to read in a log line, and is not a
 * schema dump (an `Expected undefined` from an optional field, or the type of the whole request).
 */
export const expectActionable = (issue: Issue): void => {
  expect(issue.path).not.toBe("")
  expect(issue.message.trim().length).toBeGreaterThan(0)
  expect(issue.message.length).toBeLessThanOrEqual(300)
  expect(issue.message).not.toMatch(/Expected undefined|readonly |\| filter/)
}

/** Fails unless the value is accepted, and returns it decoded. */
export const expectValid = <S extends RequestSchema>(schema: S, input: unknown): RequestType<S> => {
  const result = validate(schema, input)
  if (isFailure(result)) {
    return expect.fail(`expected a valid request, got issues: ${JSON.stringify(result.failure)}`)
  }
  return result.success
}

/** Fails unless the value is rejected; returns the issues, each checked to be actionable. */
export const expectIssues = <S extends RequestSchema>(schema: S, input: unknown): ReadonlyArray<Issue> => {
  const result = validate(schema, input)
  if (isSuccess(result)) return expect.fail("expected issues, but the request was accepted")
  const issues = result.failure
  expect(issues.length).toBeGreaterThan(0)
  issues.forEach(expectActionable)
  return issues
}

/** The request is rejected with issues at exactly these paths (in any order) and nowhere else. */
export const expectIssuesAt = <S extends RequestSchema>(
  schema: S,
  input: unknown,
  paths: ReadonlyArray<string>,
  message?: RegExp
): ReadonlyArray<Issue> => {
  const issues = expectIssues(schema, input)
  expect([...new Set(issues.map((issue) => issue.path))].sort()).toEqual([...new Set(paths)].sort())
  if (message !== undefined) {
    for (const issue of issues) expect(issue.message).toMatch(message)
  }
  return issues
}

/** A deep copy of a generated request that a test may change. */
export const copy = <A>(value: A): Mutable<A> => structuredClone(value) as Mutable<A>

/** A request as a test changes it: every field writable and any value allowed. */
export type Mutable<A> = { -readonly [K in keyof A]: any }

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Fields whose value is free-form JSON, sent exactly as given. */
const freeForm = new Set(["output_type", "parameters", "config_overrides", "additional_params", "labels_filter"])

/**
 * A valid request as the client sends it: explicit `null`s (absent optional fields) left out, and each
 * document's metadata as a `{key: value}` map.
 */
export const wireForm = (value: unknown, key?: string): unknown => {
  if (key !== undefined && freeForm.has(key)) return value
  if (Array.isArray(value)) {
    if (key === "metadata" && value.every((entry) => isPlainObject(entry) && "key" in entry)) {
      return Object.fromEntries(value.map((entry) => [entry.key, entry.value]))
    }
    return value.map((item) => wireForm(item))
  }
  if (!isPlainObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(value)) {
    if (field !== null && field !== undefined) out[name] = wireForm(field, name)
  }
  return out
}

/** A valid request as the body the client sends carries it: its `wireForm` as JSON (`-0` arrives as `0`). */
export const sentForm = (value: unknown): unknown => JSON.parse(JSON.stringify(wireForm(value)))
