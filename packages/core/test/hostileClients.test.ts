/**
 * The reference service's rules against hostile clients, as properties of the core's pure parts: how deep
 * an answer schema in a message is read, which paths name nothing, how keys are read from the environment
 * and a key file, the budget of bytes held by unfinished bodies, the bound on tenants, and identifiers that
 * follow a seed only when one is given.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  answerSchemaIssue,
  answerSchemaOf,
  maxAnswerSchemaDepth,
  nestsDeeperThan
} from "../src/reference/answerSchema.js"
import { keysOfFile, keysOfList } from "../src/reference/apiKeys.js"
import { builtIn } from "../src/reference/builtInModel.js"
import { makeByteBudget } from "../src/reference/byteBudget.js"
import { makeIds } from "../src/reference/ids.js"
import { isDecodablePath } from "../src/reference/requestPath.js"
import { makeTenants } from "../src/reference/tenants.js"

/** A value nested `depth` levels deep, alternating arrays and objects. */
const nested = (depth: number): unknown => {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value }
  return value
}

/** The text of a value nested `depth` levels deep, built as text (no recursion to make or print it). */
const nestedText = (depth: number) => "[".repeat(depth) + "]".repeat(depth)

describe("an answer schema in a system message is read within a fixed depth", () => {
  it("a value nests deeper than a limit exactly when its depth passes it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 200 }), (depth, limit) => {
        expect(nestsDeeperThan(nested(depth), limit)).toBe(depth > limit)
      })
    )
  })

  it("JSON mode with a schema deeper than the limit is a request issue at its message; within it, none", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: maxAnswerSchemaDepth + 40 }),
        fc.constantFrom("const", "enum"),
        fc.nat(3),
        (depth, keyword, before) => {
          // the schema object itself is one level; its keyword's value brings the rest
          const value = keyword === "enum" ? `[${nestedText(depth - 1)}]` : nestedText(depth - 1)
          const messages = [
            ...Array.from({ length: before }, () => ({ role: "user" as const, content: "Hi" })),
            { role: "system" as const, content: `Answer in JSON. JSON Schema: {"${keyword}": ${value}}` },
            { role: "user" as const, content: "Go" }
          ]
          const issue = answerSchemaIssue({ messages, response_format: { type: "json_object" } })
          const tooDeep = depth + (keyword === "enum" ? 1 : 0) > maxAnswerSchemaDepth
          expect(issue?.loc).toEqual(tooDeep ? ["body", "messages", before, "content"] : undefined)
          expect(answerSchemaIssue({ messages })).toBeUndefined()
        }
      )
    )
  })

  it("100,000 levels: refused without exhausting the stack, and the built-in model does not follow it", () => {
    const messages = [
      { role: "system" as const, content: `JSON Schema: {"const": ${nestedText(100_000)}}` },
      { role: "user" as const, content: "Go" }
    ]
    expect(answerSchemaOf(messages)).toEqual({ _tag: "TooDeep", message: 0 })
    const reply = builtIn(
      { model: "m", messages, response_format: { type: "json_object" } },
      { index: 0, seed: 0, purpose: "chat" }
    )
    expect(Object.keys(JSON.parse(reply as string))).toEqual(["answer"])
  })
})

describe("a path with a broken percent-escape names nothing", () => {
  it("any text, escaped, is decodable; a `%` not followed by two hex digits, or a bad UTF-8 sequence, is not", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme" }),
        fc.string({ unit: "grapheme" }),
        fc.constantFrom("%", "%Z", "%ZZ", "%4", "%E0%A4%A", "%E0%A4", "%FF", "%C0%80"),
        (before, after, broken) => {
          expect(isDecodablePath(`/a/${encodeURIComponent(before)}`)).toBe(true)
          expect(isDecodablePath(`/a/${encodeURIComponent(before)}${broken}/${encodeURIComponent(after)}`)).toBe(false)
        }
      )
    )
  })
})

describe("accepted keys from the environment and a key file", () => {
  const key = fc.stringMatching(/^[A-Za-z0-9._~+/=-]{1,40}$/)

  it("a comma-separated list gives its keys back, whatever the spaces and blank entries around them", () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 8 }), fc.constantFrom("", " ", "  "), (keys, pad) => {
        const text = [...keys, ""].map((k) => `${pad}${k}${pad}`).join(",")
        expect(keysOfList(text)).toEqual({ _tag: "Keys", keys })
      })
    )
  })

  it("a key file gives one key per line, skipping blank lines and # comments; whitespace inside a key is refused", () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 8 }), fc.boolean(), (keys, crlf) => {
        const text = ["# the team's keys", ...keys.flatMap((k) => [`  ${k}`, ""])].join(crlf ? "\r\n" : "\n")
        expect(keysOfFile(text)).toEqual({ _tag: "Keys", keys })
      })
    )
    fc.assert(
      fc.property(key, key, fc.nat(4), (a, b, line) => {
        const text = [...Array.from({ length: line }, () => "ok"), `${a} ${b}`].join("\n")
        const read = keysOfFile(text)
        expect(read).toEqual({ _tag: "Invalid", message: `line ${line + 1} holds whitespace inside a key` })
        // the refusal never quotes the key
        expect(JSON.stringify(read)).not.toContain(`${a} ${b}`)
      })
    )
  })
})

describe("the budget of bytes held by unfinished bodies", () => {
  it("whatever bodies take and give back, what is held never passes the limit, and all of it comes back", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1 << 20 }),
        fc.array(fc.tuple(fc.nat(1 << 18), fc.boolean()), { maxLength: 100 }),
        (limit, steps) => {
          const budget = makeByteBudget(limit)
          const taken: Array<number> = []
          for (const [bytes, give] of steps) {
            if (give && taken.length > 0) budget.give(taken.pop()!)
            else if (budget.take(bytes)) taken.push(bytes)
            else expect(budget.held() + bytes).toBeGreaterThan(limit)
            expect(budget.held()).toBeLessThanOrEqual(limit)
            expect(budget.held()).toBe(taken.reduce((a, b) => a + b, 0))
          }
          for (const bytes of taken) budget.give(bytes)
          expect(budget.held()).toBe(0)
        }
      )
    )
  })
})

describe("tenants", () => {
  it("each key keeps its own state, at most maxTenants are kept, the least recently used forgotten first", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f")),
        (max, uses) => {
          let made = 0
          const forgotten: Array<{ serial: number }> = []
          const tenants = makeTenants({
            separate: true,
            maxTenants: max,
            make: () => ({ serial: made++ }),
            forget: (state) => forgotten.push(state)
          })
          const recent: Array<string> = []
          const kept = new Map<string, { serial: number }>()
          for (const key of uses) {
            const state = tenants.of(key)
            if (recent.includes(key)) expect(state).toBe(kept.get(key))
            recent.splice(recent.indexOf(key) >>> 0, recent.includes(key) ? 1 : 0)
            recent.push(key)
            kept.set(key, state)
            while (recent.length > max) {
              // the state forgotten is given to `forget`, once (what it holds of shared budgets goes back)
              const oldest = kept.get(recent.shift()!)!
              expect(forgotten.at(-1)).toBe(oldest)
              kept.delete([...kept].find(([, value]) => value === oldest)![0])
            }
            expect(tenants.size()).toBe(recent.length)
            expect(forgotten.length + tenants.size()).toBe(made)
          }
        }
      )
    )
  })

  it("without separation, every key shares one state", () => {
    const tenants = makeTenants({ separate: false, maxTenants: 1, make: () => ({}) })
    expect(tenants.of("a")).toBe(tenants.of("b"))
  })
})

describe("identifiers", () => {
  it("with a seed, the same sequence on every start; without, a different one", () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const [a, b] = [makeIds(seed), makeIds(seed)]
        expect([a.uuid(), a.chat(), a.toolCall()]).toEqual([b.uuid(), b.chat(), b.toolCall()])
      })
    )
    const [x, y] = [makeIds(), makeIds()]
    expect(x.uuid()).not.toBe(y.uuid())
    expect(x.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})
