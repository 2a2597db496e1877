/**
 * The official `ai21` Python SDK (4.2.0, in ../shared/real-clients) calls `beta.batches` (create from a
 * JSONL file, retrieve, list page by page with its `after` cursor, get_results of each file and by default,
 * cancel, and the errors of a refused file and an unknown id) against the reference service on 127.0.0.1,
 * unchanged. Skipped, saying why, where Python 3.11 or the SDK's wheels are missing.
 */
import { describe, Effect, expect, it } from "@studio-effect/line"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import * as Reference from "studio-effect/reference"
import { realClients } from "../support/realClients.js"

const script = fileURLToPath(new URL("../../../core/test/fixtures/realClients/batches.py", import.meta.url))
const key = "python-key"

const clients = await realClients()

if (clients.skip !== undefined) console.warn(`skipping the ai21 Python batches replay: ${clients.skip}`)

describe.skipIf(clients.skip !== undefined)("the ai21 Python SDK's beta.batches against the reference service", () => {
  it.live("create, retrieve, list, get_results, cancel and errors", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* Reference.listen({
        port: 0,
        apiKeys: [key],
        batchPendingDuration: 0,
        batchLineDuration: 0
      })
      const waiting = yield* Reference.listen({ port: 0, apiKeys: [key], batchPendingDuration: "1 hour" })
      const output = yield* Effect.promise(() =>
        new Promise<string>((resolve, reject) =>
          execFile(
            clients.python!,
            [script, `${server.url}/studio/v1`, key, `${waiting.url}/studio/v1`],
            { env: { ...process.env, PYTHONPATH: clients.pythonPath! }, timeout: 120_000 },
            (error, stdout, stderr) =>
              error === null ? resolve(stdout) : reject(new Error(`${error.message}\n${stderr}`))
          )
        )
      )
      const result = JSON.parse(output)
      expect(result.created).toMatchObject({ status: "PROCESSING", total: 3 })
      expect(Math.abs(result.created.created_at - Date.now() / 1000)).toBeLessThan(120)
      expect(result.retrieved).toEqual({
        status: "COMPLETED",
        counts: { total: 3, completed: 2, failed: 1 },
        output_file: `/studio/v1/batches/${result.created.id}/results?file_type=output`
      })
      expect(result.pages.map((page: Array<string>) => page.length)).toEqual([2, 2])
      expect(result.pages.flat().at(-1)).toBe(result.created.id)
      expect(new Set(result.pages.flat()).size).toBe(4)
      expect(result.output).toEqual(["a", "c"])
      expect(result.answer).toBe("assistant")
      expect(result.errors).toEqual([["b", 422]])
      expect(result.default).toBe(true)
      expect(result.pending).toBe("PENDING")
      expect(result.cancelled).toEqual({ status: "CANCELLED", cancelled_at: true })
      expect(result.refused).toMatch(/endpoint/)
      expect(result.missing).toEqual([404, JSON.stringify({ detail: "Batch no-such-batch not found" })])
    })), { timeout: 120_000 })
})
