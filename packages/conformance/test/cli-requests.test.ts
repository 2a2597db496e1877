/**
 * What `studio-effect` sends and how it ends, as a user runs it (the built bin, spawned): its flags reach the
 * request (a recording proxy on 127.0.0.1 in front of a reference service over HTTP sees each body, and the
 * service checks it), `models list` against a reference service over a real socket, the exit codes that tell a
 * usage error, a refused key and a failure of the service apart, and a missing key's hint naming only what
 * the command takes.
 */
import { afterAll, beforeAll, describe, Effect, Exit, expect, it, packageDir, Scope } from "@studio-effect/line"
import { execFile } from "node:child_process"
import { writeFileSync } from "node:fs"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { exitCodes } from "studio-effect-core/cli/exitCodes"
import * as Reference from "studio-effect/reference"
import { tempDirectory } from "./support/tempDirectory.js"

const bin = join(packageDir, "bin/studio-effect.mjs")
const key = "cli-requests-key"

interface Result {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** The environment of a spawned command: the test's, with `env` over it; a variable given as "" is removed. */
const environment = (env: Record<string, string>) =>
  Object.fromEntries(
    Object.entries({ ...process.env, STUDIO_API_KEY: "", STUDIO_BASE_URL: "", NO_COLOR: "1", ...env }).filter((
      [, value]
    ) => value !== "")
  )

const cli = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<Result>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: packageDir, env: environment(env), timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    ).stdin?.end("")
  })

const scope = Effect.runSync(Scope.make())
let service = ""
let proxy: Http.Server
let proxied = ""
/** The JSON bodies the proxy saw, by path. */
const seen: Array<{ readonly method: string; readonly path: string; readonly body: unknown }> = []

beforeAll(async () => {
  const listening = await Effect.runPromise(
    Effect.provideService(
      Reference.listen({ port: 0, apiKeys: [key], runStepDuration: "20 millis" }),
      Scope.Scope,
      scope
    )
  )
  service = listening.url
  const target = new URL(service)
  // records each request's body, then passes it on to the reference service and its answer back
  proxy = Http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = Buffer.concat(chunks)
      seen.push({
        method: request.method ?? "",
        path: request.url ?? "",
        body: body.length > 0 ? JSON.parse(body.toString("utf8")) : undefined
      })
      const onward = Http.request({
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers
      }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      })
      onward.end(body)
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
  proxied = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve))
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

const viaProxy = () => ({ STUDIO_BASE_URL: proxied, STUDIO_API_KEY: key })

/** The body of the last request whose path ends with `suffix`, sent after `from` requests were seen. */
const lastBody = (suffix: string, from: number) =>
  seen.slice(from).filter((request) => request.method === "POST" && request.path.endsWith(suffix)).at(-1)?.body

describe("studio-effect: flags reach the request", { timeout: 120_000 }, () => {
  it("chat: -m, -s, -t, --top-p, --stop, --max-tokens, -d and --json-mode", async ({ onTestFinished }) => {
    const directory = tempDirectory("cli-requests-", onTestFinished)
    const notes = join(directory, "notes.md")
    writeFileSync(notes, "The tea review is on Monday.")
    const from = seen.length
    const result = await cli([
      "chat",
      "-m",
      "fpmodel-large",
      "-s",
      "Answer from the notes",
      "-t",
      "0.5",
      "--top-p",
      "0.9",
      "--stop",
      "END",
      "--stop",
      "STOP",
      "--max-tokens",
      "40",
      "-d",
      notes,
      "--json-mode",
      "--json",
      "When is the tea review?"
    ], viaProxy())
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout).choices).toHaveLength(1)
    expect(lastBody("/chat/completions", from)).toMatchObject({
      model: "fpmodel-large",
      messages: [
        { role: "system", content: "Answer from the notes" },
        { role: "user", content: "When is the tea review?" }
      ],
      temperature: 0.5,
      top_p: 0.9,
      stop: ["END", "STOP"],
      max_tokens: 40,
      documents: [{ id: "notes.md", content: "The tea review is on Monday." }],
      response_format: { type: "json_object" }
    })
  })

  it("chat: a --document that cannot be read is one line naming it, and nothing is sent", async () => {
    const from = seen.length
    const result = await cli(["chat", "-d", "/no/such/notes.md", "Hi"], viaProxy())
    expect(result.code).toBe(exitCodes.failure)
    expect(result.stderr).toBe("studio-effect: Cannot read --document /no/such/notes.md: ENOENT\n")
    expect(seen.slice(from)).toEqual([])
  })

  it("run: -m, -s, --language, --web-search(-url), --file-search and --file-label", async () => {
    const from = seen.length
    const result = await cli([
      "run",
      "-m",
      "fpmodel-large",
      "-s",
      "Be brief",
      "--language",
      "french",
      "--web-search-url",
      "example.com",
      "--file-search",
      "--file-label",
      "tea",
      "-b",
      "medium",
      "-r",
      "list=Answer as a numbered list",
      "Write two tips"
    ], viaProxy())
    expect(result.code, result.stderr).toBe(0)
    expect(lastBody("/maestro/runs", from)).toEqual({
      input: "Write two tips",
      requirements: [{ name: "list", description: "Answer as a numbered list", is_mandatory: false }],
      budget: "medium",
      models: ["fpmodel-large"],
      system_prompt: "Be brief",
      response_language: "french",
      tools: [{ type: "web_search", urls: ["example.com"] }, { type: "file_search", labels: ["tea"] }],
      include: ["requirements_result"]
    })
    const plain = seen.length
    expect((await cli(["run", "--web-search", "Write two tips"], viaProxy())).code).toBe(0)
    expect(lastBody("/maestro/runs", plain)).toEqual({ input: "Write two tips", tools: [{ type: "web_search" }] })
  })
})

describe.concurrent("studio-effect models", { timeout: 120_000 }, () => {
  it("models list: the reference service's models over HTTP, one per line", async () => {
    const listed = await cli(["models", "list"], { STUDIO_BASE_URL: service, STUDIO_API_KEY: key })
    expect(listed.code, listed.stderr).toBe(0)
    const json = await cli(["models", "list", "--json"], { STUDIO_BASE_URL: service, STUDIO_API_KEY: key })
    expect(json.code, json.stderr).toBe(0)
    const models: ReadonlyArray<{ id: string; name: string; context_length: number }> = JSON.parse(json.stdout).data
    expect(models.length).toBeGreaterThan(0)
    expect(listed.stdout.trim().split("\n")).toEqual(
      models.map((model) => `${model.id}  ${model.context_length}  ${model.name}`)
    )
  })

  it("models list --reference: the embedded service's", async () => {
    const listed = await cli(["models", "list", "--reference"])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toMatch(/^\S+ {2}\d+ {2}\S/)
  })
})

describe.concurrent("studio-effect: exit codes", { timeout: 120_000 }, () => {
  it("a usage error exits 2", async () => {
    for (
      const args of [
        ["chat", "--reference", "--max-tokens", "2.5", "Hi"],
        ["chat", "--modle=x", "Hello"],
        ["run", "--reference", "x", "--budget", "huge"],
        ["run", "--reference", "x", "--requirement", "no-equals-sign"],
        ["run", "--reference"],
        ["serve", "--port", "70000"]
      ]
    ) {
      const result = await cli(args)
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(exitCodes.usage)
      expect(result.stderr, args.join(" ")).toMatch(/^studio-effect: /)
    }
  })

  it("a key the service refuses (401) exits 4, as does no key", async () => {
    const refused = await cli(["models", "list"], { STUDIO_BASE_URL: service, STUDIO_API_KEY: "wrong-key" })
    expect(refused.code, refused.stderr).toBe(exitCodes.auth)
    expect(refused.stderr).toMatch(/^studio-effect: AuthError: 401/)
    expect(refused.stderr).not.toContain("wrong-key")
    const none = await cli(["chat", "Hi"])
    expect(none.code, none.stderr).toBe(exitCodes.auth)
  })

  it("a failure of the service exits 1", async () => {
    const notFound = await cli(["run", "get", "run_no_such_run"], { STUDIO_BASE_URL: service, STUDIO_API_KEY: key })
    expect(notFound.code, notFound.stderr).toBe(exitCodes.failure)
    expect(notFound.stderr).toMatch(/^studio-effect: NotFound: 404/)
    const invalid = await cli(["chat", "--reference", "--model", "no-such-model", "Hi"])
    expect(invalid.code, invalid.stderr).toBe(exitCodes.failure)
    expect(invalid.stderr).toMatch(/^studio-effect: ValidationError: /)
  })

  it("success and help exit 0", async () => {
    expect((await cli(["--help"])).code).toBe(exitCodes.success)
    expect((await cli(["models", "list", "--reference"])).code).toBe(exitCodes.success)
  })
})

describe.concurrent("studio-effect: the missing key's hint", { timeout: 120_000 }, () => {
  it("names --reference only to a command that takes it", async () => {
    for (const args of [["run", "get", "run_1"], ["run", "watch", "run_1"], ["assistants", "update", "asst_1"]]) {
      const result = await cli(args)
      expect(result.code, args.join(" ")).toBe(exitCodes.auth)
      expect(result.stderr, args.join(" ")).toMatch(/^studio-effect: STUDIO_API_KEY is not set: .*studio-effect serve/)
      expect(result.stderr, args.join(" ")).not.toContain("--reference")
    }
    for (const args of [["chat", "Hi"], ["run", "x"], ["assistants", "list"], ["files", "list"], ["models", "list"]]) {
      const result = await cli(args)
      expect(result.stderr, args.join(" ")).toMatch(/^studio-effect: STUDIO_API_KEY is not set: .*add --reference/)
      // and each of these takes it
      expect((await cli([...args, "--help"])).stdout, args.join(" ")).toContain("--reference")
    }
  })
})
