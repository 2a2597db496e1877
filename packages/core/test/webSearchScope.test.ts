/**
 * Where a run's `web_search.urls` entry lets the reference service search: a registered name (under a
 * one-label or a two-label public suffix) gives its `www.` form, in every shape of the interface; a
 * subdomain gives that subdomain itself, never a `www.` form of it.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { webSearchScope } from "../src/reference/runs.js"
import { isWebSearchUrl } from "../src/wire/runs.js"

const label = fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/).filter((l) => l !== "www")
const oneLabelSuffix = fc.constantFrom("com", "org", "io", "de", "uk", "dev")
const twoLabelSuffix = fc.constantFrom("co.uk", "org.uk", "com.au", "co.jp", "co.nz", "com.br", "co.za", "co.in")
const registered = fc.tuple(label, fc.oneof(oneLabelSuffix, twoLabelSuffix)).map(([name, suffix]) =>
  `${name}.${suffix}`
)
const path = fc.stringMatching(/^\/[a-z0-9][a-z0-9/_-]{0,12}$/)

/** Each shape an entry may take for `host`, with the path the scope keeps. */
const shapes = (host: string, withPath: string) =>
  [[`https://${host}`, "/"], [host, "/"], [`${host}${withPath}`, withPath]] as const

describe("webSearchScope", () => {
  it("the examples of the interface, multi-part suffixes and subdomains", () => {
    expect(webSearchScope("example.com")).toBe("https://www.example.com/")
    expect(webSearchScope("https://example.com")).toBe("https://www.example.com/")
    expect(webSearchScope("example.com/blog")).toBe("https://www.example.com/blog")
    expect(webSearchScope("docs.example.com")).toBe("https://docs.example.com/")
    expect(webSearchScope("https://docs.example.com")).toBe("https://docs.example.com/")
    expect(webSearchScope("example.co.uk")).toBe("https://www.example.co.uk/")
    expect(webSearchScope("https://example.co.uk")).toBe("https://www.example.co.uk/")
    expect(webSearchScope("example.co.uk/news")).toBe("https://www.example.co.uk/news")
    expect(webSearchScope("shop.example.co.uk")).toBe("https://shop.example.co.uk/")
    expect(webSearchScope("www.example.co.uk")).toBe("https://www.example.co.uk/")
  })

  it("a registered name gives its www. form in every shape", () =>
    fc.assert(fc.property(registered, path, (host, withPath) => {
      for (const [entry, kept] of shapes(host, withPath)) {
        expect(isWebSearchUrl(entry)).toBe(true)
        expect(webSearchScope(entry)).toBe(`https://www.${host}${kept}`)
      }
    })))

  it("a subdomain gives itself in every shape, never a www. form of it", () =>
    fc.assert(fc.property(label, registered, path, (sub, host, withPath) => {
      const subdomain = `${sub}.${host}`
      for (const [entry, kept] of shapes(subdomain, withPath)) {
        expect(isWebSearchUrl(entry)).toBe(true)
        expect(webSearchScope(entry)).toBe(`https://${subdomain}${kept}`)
      }
    })))

  it("an entry already in its www. form is kept", () =>
    fc.assert(fc.property(registered, (host) => {
      expect(webSearchScope(`www.${host}`)).toBe(`https://www.${host}/`)
      expect(webSearchScope(`https://www.${host}`)).toBe(`https://www.${host}/`)
    })))
})
