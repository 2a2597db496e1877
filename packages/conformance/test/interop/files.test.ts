/**
 * The official `ai21` npm client's `files` calls against the reference service on 127.0.0.1, unchanged:
 * upload (from a path and from a `File`, as multipart over node-fetch), get, list with offset and limit,
 * update (whose body also carries `fileId`) and delete.
 */
import { describe, Effect, expect, it } from "@studio-effect/line"
import { AI21 } from "ai21"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Reference from "studio-effect/reference"
import { tempDirectory } from "../support/tempDirectory.js"

const key = "interop-key"

describe("the ai21 npm client's files against the reference service", () => {
  it.live("create, get, list, update and delete", ({ onTestFinished }) =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* Reference.listen({ port: 0, apiKeys: [key], fileProcessingDuration: 0 })
      const client = new AI21({ apiKey: key, baseURL: `${server.url}/studio/v1`, maxRetries: 0 })
      const directory = tempDirectory("ai21-files-", onTestFinished)
      const path = join(directory, "handbook.txt")
      writeFileSync(path, "Holidays are booked in the portal.\n\nExpenses are paid monthly.")
      yield* Effect.promise(async () => {
        const fromPath = await client.files.create({ file: path, labels: ["hr", "policy"], path: "hr/handbook" })
        expect(fromPath.fileId).toMatch(/^[0-9a-f-]{36}$/)
        const fromFile = await client.files.create({
          file: new File(["# Notes\n\nShort notes."], "notes.md", { type: "text/markdown" }),
          publicUrl: "https://example.com/notes"
        })

        const stored: any = await client.files.get(fromPath.fileId)
        expect(stored).toMatchObject({
          fileId: fromPath.fileId,
          name: "handbook.txt",
          fileType: "txt",
          sizeBytes: 62,
          status: "PROCESSED",
          path: "hr/handbook",
          labels: ["hr", "policy"]
        })
        expect(stored.creationDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)

        const all: Array<any> = await client.files.list()
        expect(all.map((file) => file.fileId)).toEqual([fromPath.fileId, fromFile.fileId])
        const page: Array<any> = await client.files.list({ offset: 1, limit: 1 })
        expect(page.map((file) => file.name)).toEqual(["notes.md"])

        expect(await client.files.update({ fileId: fromFile.fileId, labels: ["notes"], publicUrl: "https://x.test" }))
          .toBeNull()
        expect(await client.files.get(fromFile.fileId)).toMatchObject({
          labels: ["notes"],
          publicUrl: "https://x.test"
        })

        expect(await client.files.delete(fromPath.fileId)).toBeNull()
        await expect(client.files.get(fromPath.fileId)).rejects.toThrow(/404/)
      })
    })))
})
