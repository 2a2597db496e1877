/**
 * URLs as messages show them: no userinfo, no query value, no fragment, whatever the URL (or the text
 * given as one) looks like.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { redactUrl } from "../src/url/redactUrl.js"

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
  })

  it("property: a secret in the userinfo, a query value or the fragment never shows; the host always does", () =>
    fc.assert(
      fc.property(
        secret,
        fc.constantFrom("user", "pw", "query", "bare", "fragment"),
        fc.constantFrom("https://", "http://", "", "HTTPS://", "ftp://"),
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
