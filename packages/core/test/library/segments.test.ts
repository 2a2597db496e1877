/**
 * The text of library files and its segments: no segment is empty or longer than its bound, segments keep
 * every word of the text in order, HTML loses its markup, and JSON becomes `path: value` lines.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { terms } from "../../src/reference/library/bm25.js"
import { fileTypeOf, htmlText, jsonText, maxSegmentLength, segmentsOf } from "../../src/reference/library/segments.js"

const length = (text: string) => Array.from(text).length

describe("segments", () => {
  it("are non-empty, at most maxSegmentLength code points, and keep every word in order", () =>
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 5000 }), (text) => {
      const segments = segmentsOf(text)
      for (const segment of segments) {
        expect(segment.trim()).not.toBe("")
        expect(length(segment)).toBeLessThanOrEqual(maxSegmentLength)
      }
      // a cut may split a word between two segments, so words are compared as the letters they hold
      expect(terms(segments.join(" ")).join("")).toBe(terms(text).join(""))
    })))

  it("join short paragraphs and split long ones at sentence ends", () => {
    expect(segmentsOf("One.\n\nTwo.\n\n\nThree.")).toEqual(["One.\nTwo.\nThree."])
    const sentence = `${"word ".repeat(150).trim()}.`
    const segments = segmentsOf(`${sentence} ${sentence}`)
    expect(segments).toEqual([sentence, sentence])
  })

  it("HTML keeps its visible text and title, without scripts, styles or tags, with entities decoded", () => {
    const text = htmlText(
      "<html><head><title>Guide</title><style>p{}</style></head><body><script>var x=1</script>"
        + "<p>Tea &amp; coffee&#33;</p><div>Second</div></body></html>"
    )
    expect(segmentsOf(text)).toEqual(["Guide\nTea & coffee!\nSecond"])
  })

  it("HTML of unclosed tags is read in linear time", () => {
    const started = performance.now()
    htmlText("<script".repeat(200_000))
    htmlText("<".repeat(1_000_000))
    expect(performance.now() - started).toBeLessThan(5000)
  })

  it("JSON gives one `path: value` line per value; malformed JSON gives undefined", () => {
    expect(jsonText("{\"a\":{\"b\":[1,\"two\"]},\"c\":true,\"d\":null}")).toBe("a.b[0]: 1\n\na.b[1]: two\n\nc: true")
    expect(jsonText("{")).toBeUndefined()
    expect(jsonText(`${"[".repeat(100_000)}1${"]".repeat(100_000)}`)).toContain("1")
  })

  it("file types come from the extension", () => {
    expect(["a.TXT", "b.md", "c.markdown", "d.htm", "e.json", "f.pdf", "g.docx", "h.exe", "noext"].map(fileTypeOf))
      .toEqual(["txt", "md", "md", "html", "json", "pdf", "docx", undefined, undefined])
  })
})
