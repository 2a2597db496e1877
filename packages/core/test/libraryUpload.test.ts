/**
 * What an upload sends besides its file's bytes: its name and the multipart form of its fields.
 */
import { describe, expect, it } from "vitest"
import { baseName, blobName, notAFileMessage, uploadForm } from "../src/wire/libraryUpload.js"

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
})
