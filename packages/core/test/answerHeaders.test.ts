/**
 * The headers an error carries: a plain object of the answer's string headers, names in lower case, within
 * its bounds whatever the transport hands over; and how an error prints on Node.
 */
import * as fc from "fast-check"
import { inspect } from "node:util"
import { describe, expect, it } from "vitest"
import { answerHeaders, answerHeadersBounds } from "../src/failure/answerHeaders.js"
import { printedError } from "../src/failure/errorPrinting.js"

const { maxHeaders, maxValueLength } = answerHeadersBounds

describe("answerHeaders", () => {
  it("is a plain object of string values, at most maxHeaders, each at most maxValueLength long", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ maxLength: 12 }),
          fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.constant(undefined), fc.array(fc.string())),
          { maxKeys: 300 }
        ),
        fc.string({ minLength: maxValueLength + 1, maxLength: maxValueLength + 2 }),
        (headers, long) => {
          const plain = answerHeaders({ ...headers, "x-long": long })
          expect(Object.getPrototypeOf(plain)).toBe(Object.prototype)
          expect(Object.keys(plain).length).toBeLessThanOrEqual(maxHeaders)
          expect(plain["x-long"]).toBeUndefined()
          for (const [name, value] of Object.entries(plain)) {
            expect(typeof value).toBe("string")
            expect(value.length).toBeLessThanOrEqual(maxValueLength)
            expect(name).toBe(name.toLowerCase())
          }
        }
      )
    )
  })

  it("keeps a header named __proto__ as a header, never as the object's prototype", () => {
    const plain = answerHeaders(JSON.parse(`{"__proto__": "x", "request-id": "req-1"}`))
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype)
    expect(Object.entries(plain)).toEqual([["__proto__", "x"], ["request-id", "req-1"]])
  })
})

describe("printedError", () => {
  it("prints as Node prints an error of that class: name and message, then the figures it has", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("RateLimit", "ApiError", "AuthError", "NotFound"),
        fc.string({ minLength: 1, maxLength: 40 }).filter((text) => !/[\n\r\u2028\u2029]/u.test(text)),
        fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
        fc.option(fc.nat(), { nil: undefined }),
        (name, message, status, retryAfterMs) => {
          const printed = inspect(printedError({ name, message, status, retryAfterMs }), { breakLength: Infinity })
          const figures = [
            ...(status === undefined ? [] : [`status: ${status}`]),
            ...(retryAfterMs === undefined ? [] : [`retryAfterMs: ${retryAfterMs}`])
          ]
          expect(printed).toBe(
            `[${name}: ${message}]${figures.length === 0 ? "" : ` { ${figures.join(", ")} }`}`
          )
        }
      )
    )
  })
})
