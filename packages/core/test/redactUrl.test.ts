/**
 * URLs as messages show them: no userinfo, no query value, no fragment, whatever the URL (or the text
 * given as one) looks like.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { redactUrl, withoutOrigins } from "../src/url/redactUrl.js"

const secret = fc.stringMatching(/^[A-Za-z0-9_-]{8,24}$/).map((s) => `SECRET${s}`)

describe("redactUrl", () => {
  it("drops userinfo, query values and the fragment; keeps scheme, host, port, path and query names", () => {
    expect(redactUrl("https://user:pass@api.example.com:8443/studio/v1?api_key=sk-1&x=2#frag")).toBe(
      "https://api.example.com:8443/studio/v1?api_key=…&x=…"
    )
    expect(redactUrl("http://127.0.0.1:8080/studio/v1/chat/completions")).toBe(
      "http://127.0.0.1:8080/studio/v1/chat/completions"
    )
    expect(redactUrl("https://a@b@host/p")).toBe("https://host/p")
    expect(redactUrl("https://host/a@b")).toBe("https://host/a@b")
    expect(redactUrl("https://host/p?sk-bare-token")).toBe("https://host/p?…")
    expect(redactUrl("not a url: user:pw@host?token=1")).toBe("host?token=…")
    expect(redactUrl("//user:pw@host/p")).toBe("//host/p")
  })

  it("property: a secret in the userinfo, a query value or the fragment never shows; the host always does", () =>
    fc.assert(
      fc.property(
        secret,
        fc.constantFrom("user", "pw", "query", "bare", "fragment"),
        fc.constantFrom("https://", "http://", "", "//", "HTTPS://", "ftp://"),
        fc.constantFrom("/studio", "", "/a/b"),
        (token, where, scheme, path) => {
          const url = where === "user"
            ? `${scheme}${token}@host.example${path}`
            : where === "pw"
            ? `${scheme}me:${token}@host.example${path}`
            : where === "query"
            ? `${scheme}host.example${path}?a=1&api_key=${token}`
            : where === "bare"
            ? `${scheme}host.example${path}?${token}`
            : `${scheme}host.example${path}#${token}`
          const shown = redactUrl(url)
          expect(shown).not.toContain(token)
          expect(shown).toContain(`host.example${path}`)
        }
      ),
      { numRuns: 500 }
    ))
})

describe("withoutOrigins", () => {
  it("cuts every URL in a text to its path; the rest of the text stays", () => {
    expect(withoutOrigins("POST http://127.0.0.1:4000/studio/v1/chat/completions failed: reset. Retry.")).toBe(
      "POST /studio/v1/chat/completions failed: reset. Retry."
    )
    expect(withoutOrigins("404 missing (GET https://u:p@api.example.com/studio/v1/x?key=1#f)")).toBe(
      "404 missing (GET /studio/v1/x?key=…)"
    )
    expect(withoutOrigins("Redirect to https://elsewhere.example not followed")).toBe("Redirect to / not followed")
    expect(withoutOrigins("no address here")).toBe("no address here")
  })

  it("property: no host of any URL in the text survives", () =>
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", " ", "(", ")", "\"", ".", ":"), { maxLength: 10 }).map((parts) => parts.join("")),
        fc.stringMatching(/^[a-z]{3,10}$/).map((s) => `host-${s}.example`),
        fc.constantFrom("https://", "http://", "HTTP://"),
        fc.constantFrom("", ":8080"),
        fc.constantFrom("", "/", "/studio/v1/chat/completions", "?q=1"),
        (around, host, scheme, port, path) => {
          const shown = withoutOrigins(`${around}${scheme}${host}${port}${path}${around}`)
          expect(shown).not.toContain(host)
        }
      ),
      { numRuns: 300 }
    ))
})
