/**
 * `studio-effect files`, as a user runs it: the built bin spawned as a process against a reference service
 * over HTTP (STUDIO_BASE_URL, STUDIO_API_KEY): upload three files, list, get, search, update and delete;
 * download a file to stdout and to a local file, and print its parsed text.
 */
import { afterAll, beforeAll, describe, Effect, Exit, expect, it, packageDir, Scope } from "@studio-effect/line"
import { execFile } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Reference from "studio-effect/reference"
import { tempDirectory } from "./support/tempDirectory.js"

const root = packageDir
const bin = join(packageDir, "bin/studio-effect.mjs")
const key = "cli-files-key"

const scope = Effect.runSync(Scope.make())
let service = { url: "" }

beforeAll(async () => {
  service = await Effect.runPromise(
    Effect.provideService(Reference.listen({ port: 0, apiKeys: [key], fileProcessingDuration: 0 }), Scope.Scope, scope)
  )
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const cli = (args: ReadonlyArray<string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: root,
        env: { ...process.env, NO_COLOR: "1", STUDIO_BASE_URL: service.url, STUDIO_API_KEY: key },
        timeout: 60_000
      },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    ).stdin?.end("")
  })

describe("studio-effect files", { timeout: 120_000 }, () => {
  it("upload, list, get, search, update and delete against the service", async ({ onTestFinished }) => {
    const directory = tempDirectory("cli-files-", onTestFinished)
    const write = (name: string, text: string) => {
      writeFileSync(join(directory, name), text)
      return join(directory, name)
    }
    const a = await cli(["files", "upload", write("tea.txt", "Green tea is steeped at 80 degrees."), "--label", "tea"])
    expect(a.code, a.stderr).toBe(0)
    const teaId = a.stdout.trim()
    expect(teaId).toMatch(/^[0-9a-f-]{36}$/)
    const b = await cli([
      "files",
      "upload",
      write("coffee.md", "# Coffee\n\nCoffee is brewed at 93 degrees."),
      "--path",
      "drinks/hot"
    ])
    expect(b.code, b.stderr).toBe(0)

    const list = await cli(["files", "list"])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain(`${teaId}  PROCESSED  tea.txt  tea`)
    expect(list.stdout).toContain("coffee.md")
    const byPath = await cli(["files", "list", "--path", "drinks/", "--json"])
    expect(JSON.parse(byPath.stdout).map((file: any) => file.name)).toEqual(["coffee.md"])

    const get = await cli(["files", "get", teaId])
    expect(JSON.parse(get.stdout)).toMatchObject({ fileId: teaId, name: "tea.txt", labels: ["tea"] })

    const search = await cli(["files", "search", "steeped tea", "--label", "tea"])
    expect(search.code, search.stderr).toBe(0)
    expect(search.stdout).toMatch(/^0\.\d{3}  tea\.txt  Green tea is steeped at 80 degrees\.$/m)

    const update = await cli(["files", "update", teaId, "--label", "green", "--public-url", "https://example.com/tea"])
    expect(update.stdout.trim()).toBe(`updated ${teaId}`)
    expect(JSON.parse((await cli(["files", "get", teaId])).stdout)).toMatchObject({
      labels: ["green"],
      publicUrl: "https://example.com/tea"
    })

    expect((await cli(["files", "delete", teaId])).stdout.trim()).toBe(`deleted ${teaId}`)
    const gone = await cli(["files", "get", teaId])
    expect(gone.code).toBe(1)
    expect(gone.stderr).toContain("404")
  })

  it("download to stdout and to a file, and the parsed text", async ({ onTestFinished }) => {
    const directory = tempDirectory("cli-download-", onTestFinished)
    const text = "# Tea\n\nGreen tea is steeped at 80 degrees.\n\nBlack tea wants boiling water."
    writeFileSync(join(directory, "tea.md"), text)
    const uploaded = await cli(["files", "upload", join(directory, "tea.md")])
    expect(uploaded.code, uploaded.stderr).toBe(0)
    const id = uploaded.stdout.trim()

    const toStdout = await cli(["files", "download", id])
    expect(toStdout.code, toStdout.stderr).toBe(0)
    expect(toStdout.stdout).toBe(text)

    const saved = join(directory, "copy.md")
    const toFile = await cli(["files", "download", id, "-o", saved])
    expect(toFile.code, toFile.stderr).toBe(0)
    expect(toFile.stdout.trim()).toBe(`saved ${saved} (${Buffer.byteLength(text)} bytes)`)
    expect(readFileSync(saved, "utf8")).toBe(text)

    const parsed = await cli(["files", "parsed", id])
    expect(parsed.code, parsed.stderr).toBe(0)
    expect(parsed.stdout).toContain("Green tea is steeped at 80 degrees.")
    expect(parsed.stdout).toContain("Black tea wants boiling water.")
    const json = JSON.parse((await cli(["files", "parsed", id, "--json"])).stdout)
    expect(json).toMatchObject({ fileId: id, name: "tea.md" })
    expect(json.segments.length).toBeGreaterThan(0)

    // an unknown file: one line naming the 404, and no file left behind
    const missing = join(directory, "missing.md")
    const unknown = await cli(["files", "download", "00000000-0000-4000-8000-000000000000", "-o", missing])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain("404")
    expect(existsSync(missing)).toBe(false)
  })

  it("a missing file is one line on stderr naming it", async () => {
    const result = await cli(["files", "upload", "/no/such/file.txt"])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("cannot read /no/such/file.txt")
  })
})
