/**
 * The credentials of a request body: every entry of every `headers` object, with where it is, in the order
 * of the body's fields, no deeper than the walk's bound, and only as far as the caller wants.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { forEachToolCredential, type ToolCredential } from "../src/secrets/toolCredentials.js"

/** Every credential of `body`, in the walk's order. */
const toolCredentials = (body: unknown): Array<ToolCredential> => {
  const found: Array<ToolCredential> = []
  forEachToolCredential(body, (credential) => {
    found.push(credential)
  })
  return found
}

/** `inner` under `depth` levels of alternating arrays and objects, and the path to it. */
const nested = (inner: object, depth: number): { readonly body: object; readonly path: string } => {
  let body: object = inner
  const segments: Array<string> = []
  for (let level = depth; level > 0; level--) {
    if (level % 2 === 0) {
      body = [body]
      segments.unshift("[0]")
    } else {
      body = { field: body }
      segments.unshift(".field")
    }
  }
  return { body, path: segments.join("").replace(/^\./, "") }
}

describe("forEachToolCredential", () => {
  it("gives each header of each tool with its headers' path, in the body's order", () => {
    expect([...toolCredentials({
      input: "x",
      headers: { "x-top": "t" },
      tools: [
        { type: "mcp", server_url: "https://a.example", headers: { Authorization: "Bearer s", "x-n": 1 } },
        { type: "web_search" },
        { type: "http", function: { name: "f" }, endpoint: { url: "https://b.example", headers: { "x-key": "k" } } },
        { type: "mcp", server_url: "https://c.example", headers: {} }
      ]
    })]).toEqual([
      { path: "headers", name: "x-top", value: "t" },
      { path: "tools[0].headers", name: "Authorization", value: "Bearer s" },
      { path: "tools[0].headers", name: "x-n", value: 1 },
      { path: "tools[2].endpoint.headers", name: "x-key", value: "k" }
    ])
    expect([...toolCredentials({ input: "no tools", headers: "not an object" })]).toEqual([])
    expect([...toolCredentials("a string")]).toEqual([])
    expect([...toolCredentials(null)]).toEqual([])
  })

  it("finds a headers object held at most 16 levels deep, and none deeper", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 24 }), fc.string(), (depth, value) => {
      const { body, path } = nested({ headers: { h: value } }, depth)
      const found = [...toolCredentials(body)]
      expect(found).toEqual(
        depth <= 16 ? [{ path: path === "" ? "headers" : `${path}.headers`, name: "h", value }] : []
      )
    }))
  })

  it("walks no further once its visitor stops it", () => {
    let walked = 0
    const tools = Array.from({ length: 100 }, (_, index) => ({
      get headers() {
        walked++
        return { h: `${index}` }
      }
    }))
    const found: Array<ToolCredential> = []
    forEachToolCredential({ tools }, (credential) => {
      found.push(credential)
      return false
    })
    expect(found).toEqual([{ path: "tools[0].headers", name: "h", value: "0" }])
    expect(walked).toBe(1)
  })
})
