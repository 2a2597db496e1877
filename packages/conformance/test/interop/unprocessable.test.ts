/**
 * The reference service's 422 bodies, over random invalid bodies on every route that takes one: one
 * `{loc, msg, type}` entry per problem, with a message a person can act on; no entry per union branch, no
 * TypeScript type text, no echo of whole arrays or objects.
 */
import { describe, Effect, expect, it } from "@studio-effect/line"
import * as fc from "fast-check"
import { chatModels } from "studio-effect-core/wire/models"
import * as Reference from "studio-effect/reference"
import { call } from "../reference/support.js"
import { validRunMessages, validRunRequest, validUnstreamedChatRequest } from "../validation/arbitraries.js"

type Path = ReadonlyArray<string | number>

/** Every path inside a JSON value (the root aside), at most `limit` of them. */
const pathsOf = (value: unknown, limit = 400): Array<Path> => {
  const out: Array<Path> = []
  const visit = (node: unknown, path: Path) => {
    if (out.length >= limit || typeof node !== "object" || node === null) return
    const entries = Array.isArray(node) ? node.map((item, index) => [index, item] as const) : Object.entries(node)
    for (const [key, child] of entries) {
      out.push([...path, key])
      visit(child, [...path, key])
    }
  }
  visit(value, [])
  return out
}

const junk = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null)), { minLength: 2, maxLength: 30 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { minKeys: 1, maxKeys: 4 }),
  fc.array(fc.record({ a: fc.integer() }), { minLength: 2, maxLength: 5 })
)

/** A change to one place of a body: its value replaced with something else, or the field removed. */
type Change = { readonly at: number; readonly value: unknown } | { readonly at: number; readonly remove: true }

const change = fc.oneof(
  { weight: 4, arbitrary: fc.record({ at: fc.nat(), value: junk }) },
  { weight: 1, arbitrary: fc.record({ at: fc.nat(), remove: fc.constant(true as const) }) }
)

const applied = (body: unknown, change: Change): { readonly body: unknown; readonly path: Path } => {
  const copy = structuredClone(body) as any
  const paths = pathsOf(copy)
  if (paths.length === 0) return { body: copy, path: [] }
  const path = paths[change.at % paths.length]!
  let parent = copy
  for (const key of path.slice(0, -1)) parent = parent[key]
  const last = path[path.length - 1]!
  if ("remove" in change) {
    if (Array.isArray(parent)) parent.splice(last as number, 1)
    else delete parent[last]
  } else {
    parent[last] = change.value
  }
  return { body: copy, path }
}

const issueTypes = new Set([
  "missing",
  "extra_forbidden",
  "string_type",
  "float_type",
  "bool_type",
  "list_type",
  "dict_type",
  "literal_error",
  "union_type",
  "value_error",
  "enum"
])

/** The kinds that say "this value is not of the expected kind": one per place, or it is a union's noise. */
const kindTypes = new Set(["string_type", "float_type", "bool_type", "list_type", "dict_type", "union_type"])

const typeText = /Expected |actual |readonly |ReadonlyArray|\{ readonly|<->|\| filter|Struct \(|Encoded side|Type side/

/** The JSON of every non-empty array and object inside a body. */
const containersOf = (body: unknown): ReadonlyArray<string> => {
  const out: Array<string> = []
  const visit = (node: unknown) => {
    if (typeof node !== "object" || node === null) return
    const children = Object.values(node)
    if (children.length > 0) out.push(JSON.stringify(node))
    children.forEach(visit)
  }
  visit(body)
  return out
}

const startsWith = (loc: Path, prefix: Path) => prefix.every((segment, index) => loc[index] === segment)

/** Checks a 422 body; `path` is where the body was changed. */
const expectGoodDetail = (detail: unknown, path: Path, body: unknown) => {
  expect(Array.isArray(detail)).toBe(true)
  const entries = detail as ReadonlyArray<{ loc: Path; msg: string; type: string }>
  expect(entries.length).toBeGreaterThan(0)
  const containers = containersOf(body)
  const seen = new Set<string>()
  const kinds = new Map<string, number>()
  for (const entry of entries) {
    expect(Object.keys(entry).sort()).toEqual(["loc", "msg", "type"])
    expect(entry.loc[0]).toBe("body")
    for (const segment of entry.loc) expect(["string", "number"]).toContain(typeof segment)
    expect(typeof entry.msg).toBe("string")
    expect(entry.msg.trim().length).toBeGreaterThan(0)
    expect(entry.msg.length).toBeLessThanOrEqual(500)
    expect(entry.msg).not.toMatch(typeText)
    // no echo of an array or object of the body
    for (const part of containers) expect(entry.msg).not.toContain(part)
    expect(issueTypes.has(entry.type), entry.type).toBe(true)
    const key = JSON.stringify([entry.loc, entry.msg])
    expect(seen.has(key), `repeated entry ${key}`).toBe(false)
    seen.add(key)
    if (kindTypes.has(entry.type)) {
      const at = JSON.stringify(entry.loc)
      kinds.set(at, (kinds.get(at) ?? 0) + 1)
    }
  }
  // a union reports what it expected once, not once per member
  for (const [at, count] of kinds) expect(count, `${count} kind entries at ${at}: ${JSON.stringify(entries)}`).toBe(1)
  // the change is reported where it was made (or at a place that contains it, or inside it)
  const changed: Path = ["body", ...path]
  const near = entries.some((entry) => startsWith(entry.loc, changed) || startsWith(changed, entry.loc))
  const crossField = entries.some((entry) => entry.type === "value_error")
  expect(
    near || crossField,
    `${JSON.stringify(entries)} for a change at ${JSON.stringify(changed)} of ${JSON.stringify(body).slice(0, 400)}`
  ).toBe(true)
}

const chatBody = fc.tuple(validUnstreamedChatRequest, fc.constantFrom(...chatModels)).map(([request, model]) => ({
  ...request,
  model
}))
const runBody = validRunRequest.map((request) => ({ ...request, models: ["fpmodel-mini"] }))
const assistantBody = validRunRequest.map(({ include: _include, input: _input, tool_resources: _t, ...request }) => ({
  ...request,
  name: "helper",
  models: ["fpmodel-mini"]
}))
const assistantRunBody = fc.tuple(validRunMessages, validRunRequest).map((
  [input, { include: _include, input: _input, tool_resources: _t, ...request }]
) => ({ ...request, input, models: ["fpmodel-mini"] }))

const routes = [
  { name: "chat completions", method: "POST" as const, path: () => "/studio/v1/chat/completions", body: chatBody },
  { name: "maestro runs", method: "POST" as const, path: () => "/studio/v1/maestro/runs", body: runBody },
  { name: "create assistant", method: "POST" as const, path: () => "/studio/v1/assistants", body: assistantBody },
  {
    name: "modify assistant",
    method: "PATCH" as const,
    path: (id: string) => `/studio/v1/assistants/${id}`,
    body: assistantBody
  },
  {
    name: "run assistant",
    method: "POST" as const,
    path: (id: string) => `/studio/v1/assistants/${id}/run`,
    body: assistantRunBody
  }
]

describe("422 bodies over random invalid bodies", () => {
  for (const route of routes) {
    it(`${route.name}: one actionable {loc, msg, type} entry per problem`, async () => {
      let refused = 0
      await fc.assert(
        fc.asyncProperty(route.body, change, (valid, change) =>
          Effect.runPromise(
            Effect.gen(function*() {
              const assistant = yield* call("POST", "/studio/v1/assistants", { body: { name: "target" } })
              const { body, path } = applied(valid, change)
              const answer = yield* call(route.method, route.path(assistant.json.id), { body })
              expect([200, 422], answer.text).toContain(answer.status)
              if (answer.status === 422) {
                refused++
                expectGoodDetail(answer.json.detail, path, body)
              }
            }).pipe(Effect.provide(Reference.layer()))
          )),
        { numRuns: 100 }
      )
      expect(refused).toBeGreaterThan(30)
    })
  }

  it.effect("a union that fits no member says once what it expected, in words", () =>
    Effect.gen(function*() {
      const answer = yield* call("POST", "/studio/v1/chat/completions", {
        body: { model: "fpmodel-mini", messages: [{ role: "user", content: "hi" }], stop: 5, documents: 7 }
      })
      expect(answer.status).toBe(422)
      expect(answer.json.detail).toEqual([
        { loc: ["body", "documents"], msg: "expected an array, got 7", type: "list_type" },
        { loc: ["body", "stop"], msg: "expected a string or an array, got 5", type: "union_type" }
      ])
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("a missing field is pydantic's Field required; a long array is named, not echoed", () =>
    Effect.gen(function*() {
      const answer = yield* call("POST", "/studio/v1/chat/completions", {
        body: { messages: Array.from({ length: 50 }, () => ({ role: "user", content: "hi" })), n: [1, 2, 3, 4, 5] }
      })
      expect(answer.status).toBe(422)
      expect(answer.json.detail).toEqual([
        { loc: ["body", "model"], msg: "Field required", type: "missing" },
        { loc: ["body", "n"], msg: "expected a number, got an array of 5 items", type: "float_type" }
      ])
    }).pipe(Effect.provide(Reference.layer())))
})
