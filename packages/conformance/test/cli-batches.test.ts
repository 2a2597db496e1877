/**
 * `studio-effect batches`, as a user runs it: the built bin spawned as a process against a reference service
 * over HTTP (STUDIO_BASE_URL, STUDIO_API_KEY): create, get, list, results of each file, cancel; a bad file
 * and bad metadata are one line on stderr; `create --wait --reference` runs against the embedded service.
 */
import { afterAll, beforeAll, describe, Effect, Exit, expect, it, packageDir, Scope } from "@studio-effect/line"
import { execFile } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Reference from "studio-effect/reference"
import { tempDirectory, type WhenDone } from "./support/tempDirectory.js"

const bin = join(packageDir, "bin/studio-effect.mjs")
const key = "cli-batches-key"

const scope = Effect.runSync(Scope.make())
let service = { url: "" }
let waiting = { url: "" }

beforeAll(async () => {
  service = await Effect.runPromise(Effect.provideService(
    Reference.listen({ port: 0, apiKeys: [key], batchPendingDuration: 0, batchLineDuration: 0 }),
    Scope.Scope,
    scope
  ))
  waiting = await Effect.runPromise(Effect.provideService(
    Reference.listen({ port: 0, apiKeys: [key], batchPendingDuration: "1 hour" }),
    Scope.Scope,
    scope
  ))
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const cli = (args: ReadonlyArray<string>, url = service.url) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: packageDir,
        env: { ...process.env, NO_COLOR: "1", STUDIO_BASE_URL: url, STUDIO_API_KEY: key },
        timeout: 60_000
      },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    ).stdin?.end("")
  })

const line = (customId: string, model: string, content: string) =>
  JSON.stringify({
    custom_id: customId,
    method: "POST",
    url: "/v1/chat/completions",
    body: { model, messages: [{ role: "user", content }] }
  })

const write = (lines: ReadonlyArray<string>, whenDone: WhenDone) => {
  const path = join(tempDirectory("cli-batches-", whenDone), "requests.jsonl")
  writeFileSync(path, lines.join("\n") + "\n")
  return path
}

describe("studio-effect batches", { timeout: 120_000 }, () => {
  it("create, get, list, results and cancel against the service", async ({ onTestFinished }) => {
    const requests = write([line("a", "fpmodel-mini", "Hello"), line("b", "no-such-model", "x")], onTestFinished)
    const created = await cli(["batches", "create", requests, "--metadata", "team=docs"])
    expect(created.code, created.stderr).toBe(0)
    const id = created.stdout.trim()
    expect(id).toMatch(/^[0-9a-f-]{36}$/)

    const get = await cli(["batches", "get", id])
    expect(JSON.parse(get.stdout)).toMatchObject({
      id,
      status: "COMPLETED",
      metadata: { team: "docs" },
      request_counts: { total: 2, completed: 1, failed: 1 }
    })
    const list = await cli(["batches", "list"])
    expect(list.stdout).toContain(`${id}  COMPLETED  2/2  1 failed`)

    const output = await cli(["batches", "results", id])
    expect(output.code, output.stderr).toBe(0)
    expect(output.stdout.trim().split("\n").map((text) => JSON.parse(text).custom_id)).toEqual(["a"])
    const errors = await cli(["batches", "results", id, "--error"])
    expect(JSON.parse(errors.stdout.trim())).toMatchObject({ custom_id: "b", response: { status_code: 422 } })

    const pending = await cli(["batches", "create", requests], waiting.url)
    const cancelled = await cli(["batches", "cancel", pending.stdout.trim()], waiting.url)
    expect(cancelled.stdout.trim()).toBe(`${pending.stdout.trim()}  CANCELLED  0/2  0 failed`)
  })

  it("a bad file or metadata is one line on stderr, and nothing is created", async ({ onTestFinished }) => {
    const broken = await cli(["batches", "create", write([line("a", "fpmodel-mini", "x"), "{"], onTestFinished)])
    expect(broken.code).toBe(1)
    expect(broken.stderr).toContain("line 2 is not JSON")
    expect(broken.stderr.trim().split("\n")).toHaveLength(1)
    const metadata = await cli([
      "batches",
      "create",
      write([line("a", "fpmodel-mini", "x")], onTestFinished),
      "--metadata",
      "team"
    ])
    expect(metadata.code).toBe(1)
    expect(metadata.stderr).toContain("--metadata team: write it as key=value")
    const missing = await cli(["batches", "get", "no-such-batch"])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("404")
  })

  it("create --wait --reference runs the batch on the embedded service until it has finished", async ({ onTestFinished }) => {
    const result = await cli([
      "batches",
      "create",
      write([line("a", "fpmodel-mini", "Hi")], onTestFinished),
      "--wait",
      "--reference"
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout.trim()).toMatch(/^[0-9a-f-]{36}  COMPLETED  1\/1  0 failed$/)
  })
})
