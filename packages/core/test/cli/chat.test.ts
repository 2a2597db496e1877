/**
 * The chat request of `chat`'s options: each field only when its option is given.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { chatRequest, maxDocumentBytes, readDocument } from "../../src/cli/chat.js"

const bare = { model: "m", prompt: "Hi", stop: [], documents: [], jsonMode: false }

describe("chatRequest", () => {
  it("is the model and the prompt alone when no option is given", () => {
    expect(chatRequest(bare)).toEqual({ model: "m", messages: [{ role: "user", content: "Hi" }] })
  })

  it("maps every option to its field", () => {
    expect(
      chatRequest({
        ...bare,
        system: "Be brief",
        temperature: 0.5,
        topP: 0.9,
        maxTokens: 7,
        stop: ["END", "STOP"],
        documents: [{ id: "notes.md", content: "Review on Monday" }],
        jsonMode: true
      })
    ).toEqual({
      model: "m",
      messages: [{ role: "system", content: "Be brief" }, { role: "user", content: "Hi" }],
      temperature: 0.5,
      top_p: 0.9,
      max_tokens: 7,
      stop: ["END", "STOP"],
      documents: [{ id: "notes.md", content: "Review on Monday" }],
      response_format: { type: "json_object" }
    })
  })
})

/** A file as `node:fs/promises` opens it, `size` bytes long, holding `text`. */
const handle = (size: number, text: string) => ({
  stat: async () => ({ size }),
  readFile: async () => text,
  close: async () => {}
})

describe("readDocument", () => {
  it("is the file's text, its name as id", async () => {
    expect(await readDocument("notes/tea.md", async () => handle(5, "Green"))).toEqual({
      _tag: "Document",
      id: "tea.md",
      content: "Green"
    })
  })

  it("reads a file up to the bound, and refuses a larger one without reading it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 4 * maxDocumentBytes }), async (size) => {
        const read = await readDocument("f.txt", async () => handle(size, "x"))
        expect(read._tag).toBe(size > maxDocumentBytes ? "Invalid" : "Document")
      })
    )
  })

  it("refuses a file larger than the bound without reading it, and one that cannot be opened", async () => {
    let read = false
    const large = { ...handle(maxDocumentBytes + 1, ""), readFile: async () => (read = true, "") }
    expect(await readDocument("big.txt", async () => large)).toEqual({
      _tag: "Invalid",
      message: `--document big.txt is ${maxDocumentBytes + 1} bytes: the most read is ${maxDocumentBytes}`
    })
    expect(read).toBe(false)
    const missing = Object.assign(new Error("no such file"), { code: "ENOENT" })
    expect(await readDocument("gone.txt", () => Promise.reject(missing))).toEqual({
      _tag: "Invalid",
      message: "Cannot read --document gone.txt: ENOENT"
    })
  })
})
