/**
 * What an upload sends besides its file's bytes: its name and the multipart form of its fields, encoded by
 * the platform's `FormData` or streamed around the file's bytes (the same form either way).
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fieldText, parseMultipart } from "../src/reference/library/multipart.js"
import {
  baseName,
  blobName,
  formBoundary,
  notAFileMessage,
  streamedUploadForm,
  uploadForm,
  uploadFormEntries
} from "../src/wire/libraryUpload.js"

describe("upload", () => {
  it("a file's name: a path's last part, a File's own, else file.txt", () => {
    expect(baseName("/a/b/report.pdf")).toBe("report.pdf")
    expect(baseName("C:\\docs\\notes.txt")).toBe("notes.txt")
    expect(blobName(new File(["x"], "given.md"))).toBe("given.md")
    expect(blobName(new Blob(["x"]))).toBe("file.txt")
  })

  it("the form holds the file and each field, a batch upload marked as one", async () => {
    const { bytes, contentType } = await uploadForm(new Blob(["hello"]), "a.txt", {
      path: "docs/",
      labels: ["x", "y"],
      batchId: "b1"
    })
    const form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": contentType } })
      .formData()
    expect(await (form.get("file") as File).text()).toBe("hello")
    expect(form.getAll("labels")).toEqual(["x", "y"])
    expect(form.get("path")).toBe("docs/")
    expect(form.get("upload_mode")).toBe("batch")
    expect(form.get("publicUrl")).toBeNull()
  })

  it("a path that is not a regular file says what it is", () => {
    expect(notAFileMessage("/tmp", "Directory")).toMatch(/^\/tmp is a directory: /)
    expect(notAFileMessage("/dev/zero", "CharacterDevice")).toMatch(/not a regular file \(CharacterDevice\)/)
  })

  it("custom_configs, metadata and data_source are sent as the Python client names them", () => {
    expect(uploadFormEntries({ customConfigs: "{\"a\":1}", metadata: "{}", dataSource: "crm" })).toEqual([
      ["custom_configs", "{\"a\":1}"],
      ["metadata", "{}"],
      ["data_source", "crm"]
    ])
  })

  it("a streamed form, its file between head and tail, is the form FormData encodes, to both parsers", async () => {
    const text = fc.string({ unit: "grapheme", maxLength: 12 })
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 512 }),
        text.filter((name) => name !== ""),
        fc.record({
          path: text,
          labels: fc.array(text, { maxLength: 3 }),
          publicUrl: text,
          batchId: text,
          customConfigs: text,
          metadata: text,
          dataSource: text
        }, { requiredKeys: [] }),
        async (bytes, name, fields) => {
          const form = streamedUploadForm(name, fields, formBoundary())
          const body = new Uint8Array([...form.head, ...bytes, ...form.tail])
          const parsed = await new Response(body, { headers: { "content-type": form.contentType } }).formData()
          const encoded = await uploadForm(new Blob([bytes as Uint8Array<ArrayBuffer>]), name, fields)
          const expected = await new Response(encoded.bytes as Uint8Array<ArrayBuffer>, {
            headers: { "content-type": encoded.contentType }
          }).formData()
          const entries = async (data: FormData) =>
            Promise.all(
              [...data].map(async ([key, value]) =>
                typeof value === "string"
                  ? [key, value]
                  : [key, value.name, [...new Uint8Array(await value.arrayBuffer())]]
              )
            )
          expect(await entries(parsed)).toEqual(await entries(expected))
          // the reference service's own parser reads the same parts
          const parts = parseMultipart(form.contentType, body)
          expect(parts._tag).toBe("Parts")
          if (parts._tag !== "Parts") return
          expect(parts.parts[0]!.body).toEqual(bytes)
          expect(parts.parts.slice(1).map((part) => [part.name, fieldText(part)])).toEqual(
            uploadFormEntries(fields).map(([key, value]) => [key, value.replace(/\r?\n|\r/g, "\r\n")])
          )
        }
      ),
      { numRuns: 60 }
    )
  })
})
