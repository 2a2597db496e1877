/**
 * The official `ai21` Python SDK (4.2.0, in ../shared/real-clients) calls `library.files` (create from a
 * path with path, labels and public URL, get, list with offset and limit, update, a batch upload and its
 * status, an upload with `data_source`, `metadata` and `custom_configs` passed on as form fields, delete)
 * against the reference service on 127.0.0.1, unchanged; the SDK reads the file's `dataSource` back. Skipped, saying why, where
 * Python 3.11 or the SDK's wheels are missing.
 */
import { describe, Effect, expect, FetchHttpClient, it, Layer, Redacted } from "@studio-effect/line"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { Library, StudioClient } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { realClients } from "../support/realClients.js"

const script = fileURLToPath(new URL("../../../core/test/fixtures/realClients/library.py", import.meta.url))
const key = "python-key"

const clients = await realClients()

if (clients.skip !== undefined) console.warn(`skipping the ai21 Python library replay: ${clients.skip}`)

describe.skipIf(clients.skip !== undefined)("the ai21 Python SDK's library.files against the reference service", () => {
  it.live(
    "create (with data_source, metadata and custom_configs too), get, list, update, batch status and delete",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* Reference.listen({ port: 0, apiKeys: [key], fileProcessingDuration: 0 })
        const output = yield* Effect.promise(() =>
          new Promise<string>((resolve, reject) =>
            execFile(
              clients.python!,
              [script, `${server.url}/studio/v1`, key],
              { env: { ...process.env, PYTHONPATH: clients.pythonPath! }, timeout: 120_000 },
              (error, stdout, stderr) =>
                error === null ? resolve(stdout) : reject(new Error(`${error.message}\n${stderr}`))
            )
          )
        )
        const result = JSON.parse(output)
        expect(result.ids).toHaveLength(3)
        expect(result.got).toEqual({
          name: "refunds.txt",
          status: "PROCESSED",
          labels: ["billing"],
          path: "docs/refunds.txt",
          public_url: "https://x.test/refunds.txt"
        })
        expect(result.listed).toEqual(["refunds.txt", "travel.md", "invoices.txt"])
        expect(result.page).toEqual(["travel.md"])
        expect(result.updated).toEqual({ labels: ["billing", "policy"], public_url: "https://y.test" })
        expect(result.batch).toEqual({ total: 1, statuses: [["PROCESSED", 1]] })
        expect(result.after_delete).toEqual(["refunds.txt", "invoices.txt", "refunds.txt", "invoices.txt"])
        const withFields = yield* Library.retrieve(result.with_fields).pipe(
          Effect.provide(
            StudioClient.layer({ apiKey: Redacted.make(key), baseUrl: server.url }).pipe(
              Layer.orDie,
              Layer.provide(FetchHttpClient.layer)
            )
          )
        )
        expect(withFields).toMatchObject({ name: "invoices.txt", labels: ["billing"], dataSource: "crm-export" })
      })),
    { timeout: 120_000 }
  )
})
