/**
 * The multipart parser of uploads reads what the platform's own `FormData` encoder writes, field for field
 * and byte for byte, and refuses a body that is not a whole multipart body.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { boundaryOf, fieldText, maxParts, parseMultipart } from "../../src/reference/library/multipart.js"

const encode = async (form: FormData) => {
  const response = new Response(form)
  return {
    contentType: response.headers.get("content-type")!,
    bytes: new Uint8Array(await response.arrayBuffer())
  }
}

describe("parseMultipart", () => {
  it("gives back every field and file FormData encodes", () =>
    fc.assert(fc.asyncProperty(
      fc.array(fc.tuple(fc.stringMatching(/^[a-z_]{1,10}$/), fc.string({ maxLength: 50 })), { maxLength: 10 }),
      fc.uint8Array({ maxLength: 2000 }),
      fc.stringMatching(/^[a-z0-9 ._-]{1,20}$/),
      async (fields, file, filename) => {
        const form = new FormData()
        form.append("file", new Blob([file as Uint8Array<ArrayBuffer>]), filename)
        for (const [name, value] of fields) form.append(name, value)
        const { bytes, contentType } = await encode(form)
        const parsed = parseMultipart(contentType, bytes)
        expect(parsed._tag).toBe("Parts")
        if (parsed._tag !== "Parts") return
        expect(parsed.parts[0]!.filename).toBe(filename)
        expect(Array.from(parsed.parts[0]!.body)).toEqual(Array.from(file))
        // FormData normalizes line ends in field values to CRLF
        expect(parsed.parts.slice(1).map((part) => [part.name, fieldText(part)])).toEqual(
          fields.map(([name, value]) => [name, value.replace(/\r\n|\r|\n/g, "\r\n")])
        )
      }
    )))

  it("refuses what is not a whole multipart body", async () => {
    const form = new FormData()
    form.append("file", new Blob(["hello"]), "a.txt")
    const { bytes, contentType } = await encode(form)
    expect(parseMultipart("application/json", bytes)._tag).toBe("NotMultipart")
    expect(parseMultipart(undefined, bytes)._tag).toBe("NotMultipart")
    expect(parseMultipart(contentType, bytes.subarray(0, bytes.length - 10))._tag).toBe("Malformed")
    expect(parseMultipart(contentType, new Uint8Array(0))._tag).toBe("Malformed")
    fc.assert(fc.property(fc.uint8Array({ maxLength: 500 }), (garbage) => {
      expect(["Parts", "Malformed"]).toContain(parseMultipart(contentType, garbage)._tag)
    }))
  })

  it("keeps at most maxParts parts", async () => {
    const form = new FormData()
    for (let i = 0; i <= maxParts; i++) form.append("labels", `l${i}`)
    const { bytes, contentType } = await encode(form)
    expect(parseMultipart(contentType, bytes)).toEqual({
      _tag: "Malformed",
      reason: `the body has more than ${maxParts} parts`
    })
  })

  it("reads the boundary, quoted or not", () => {
    expect(boundaryOf("multipart/form-data; boundary=abc")).toBe("abc")
    expect(boundaryOf("Multipart/Form-Data; charset=utf-8; boundary=\"a b\"")).toBe("a b")
    expect(boundaryOf("multipart/mixed; boundary=abc")).toBeUndefined()
  })
})
