/**
 * The `studio-effect` command, as a user runs it: the built bin (bin/studio-effect.mjs over dist/, built by
 * the global setup) spawned as a process, against the embedded reference service (`--reference`) and against
 * a reference service over HTTP standing in for the real one (STUDIO_BASE_URL, STUDIO_API_KEY).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { execFile } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Reference from "../src/reference/index.js"
import { startServe, stop } from "./support/serve.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const bin = fileURLToPath(new URL("../bin/studio-effect.mjs", import.meta.url))
const packageVersion: string = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version

interface Result {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const noService = { STUDIO_API_KEY: "", STUDIO_BASE_URL: "" }

const cli = (
  args: ReadonlyArray<string>,
  options: { readonly env?: Record<string, string>; readonly input?: string } = {}
) =>
  new Promise<Result>((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { cwd: root, env: { ...process.env, ...noService, NO_COLOR: "1", ...options.env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : 1,
          stdout,
          stderr
        })
    )
    child.stdin?.end(options.input ?? "")
  })

/** Lines of stderr that are not empty. */
const lines = (text: string) => text.split("\n").filter((line) => line.trim() !== "")

const scope = Effect.runSync(Scope.make())
let service = { url: "", port: 0 }
const goodKey = "cli-test-key"
const asService = () => ({ STUDIO_BASE_URL: service.url, STUDIO_API_KEY: goodKey })

beforeAll(async () => {
  service = await Effect.runPromise(
    Scope.provide(Reference.listen({ port: 0, apiKeys: [goodKey], runStepDuration: "20 millis" }), scope)
  )
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

/**
 * The tests share nothing but the service (each assistant they create is their own), so each group runs its
 * tests at once; each test may take a minute or two for its processes when they all start together.
 */
const spawning = { timeout: 120_000 }

describe.concurrent("studio-effect: --version and --help at every level", spawning, () => {
  it("--version prints the package's version", async () => {
    const result = await cli(["--version"])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe(packageVersion)
  })

  for (
    const command of [
      [],
      ["chat"],
      ["run"],
      ["assistants"],
      ["assistants", "list"],
      ["assistants", "create"],
      [
        "assistants",
        "get"
      ],
      ["assistants", "run"],
      ["assistants", "delete"],
      ["serve"]
    ]
  ) {
    it(`studio-effect ${command.join(" ")} --help and --version`, async () => {
      const help = await cli([...command, "--help"])
      expect(help.code, help.stderr).toBe(0)
      // effect/cli's usage line names the whole command path
      expect(help.stdout).toContain(`USAGE\n  ${["studio-effect", ...command].join(" ")} `)
      const version = await cli([...command, "--version"])
      expect(version.code, version.stderr).toBe(0)
      expect(version.stdout.trim()).toBe(packageVersion)
    })
  }

  it("the root help names every command", async () => {
    const help = await cli(["--help"])
    for (const name of ["chat", "run", "assistants", "serve"]) expect(help.stdout).toContain(name)
  })
})

describe.concurrent("studio-effect chat", spawning, () => {
  it("streams the answer of the embedded reference service", async () => {
    const result = await cli(["chat", "--reference", "Hello"])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain("you asked: \"Hello\"")
    expect(result.stdout).toContain("reference service")
    expect(result.stderr).toBe("")
  })

  it("reads the prompt from stdin when none is given", async () => {
    const result = await cli(["chat", "--reference"], { input: "A prompt from a pipe\n" })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain("A prompt from a pipe")
  })

  it("--json prints the completion; --model, --system, --temperature and --max-tokens reach the request", async () => {
    const result = await cli([
      "chat",
      "--reference",
      "--json",
      "--model",
      "fpmodel-large",
      "--system",
      "Be brief",
      "--temperature",
      "0",
      "--max-tokens",
      "3",
      "Tell me about the sea"
    ])
    expect(result.code, result.stderr).toBe(0)
    const completion = JSON.parse(result.stdout)
    expect(completion.choices[0].finish_reason).toBe("length")
    expect(completion.usage.completion_tokens).toBe(3)
    // the system message is counted in the prompt: the same request without it counts fewer tokens
    const without = JSON.parse(
      (await cli(["chat", "--reference", "--json", "--max-tokens", "3", "Tell me about the sea"])).stdout
    )
    expect(completion.usage.prompt_tokens).toBeGreaterThan(without.usage.prompt_tokens)
  })

  it("against a service over HTTP with STUDIO_BASE_URL and STUDIO_API_KEY", async () => {
    const result = await cli(["chat", "Hello over HTTP"], { env: asService() })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain("Hello over HTTP")
  })

  it("a refused key is one line on stderr and a non-zero exit", async () => {
    const result = await cli(["chat", "Hello"], { env: { ...asService(), STUDIO_API_KEY: "wrong-key" } })
    expect(result.code).not.toBe(0)
    expect(lines(result.stderr)).toHaveLength(1)
    expect(result.stderr).toMatch(/^studio-effect: AuthError: 401/)
    expect(result.stderr).not.toContain("wrong-key")
  })

  it("no key and no --reference is one line that says what to do", async () => {
    const result = await cli(["chat", "Hello"])
    expect(result.code).not.toBe(0)
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/^studio-effect: STUDIO_API_KEY is not set: .* or add --reference/)
    ])
  })

  it("--model reaches the request: an unknown model is the service's validation error", async () => {
    const result = await cli(["chat", "--reference", "--model", "no-such-model", "Hi"])
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain("ValidationError")
    expect(result.stderr).toContain("model")
  })
})

describe.concurrent("studio-effect run", spawning, () => {
  it("follows the run with a progress line, then prints the result and the requirement scores", async () => {
    const result = await cli([
      "run",
      "--reference",
      "Write two tips",
      "--requirement",
      "list=Answer as a numbered list",
      "--requirement",
      "short=At most 40 words",
      "--mandatory",
      "short",
      "--budget",
      "medium"
    ])
    expect(result.code, result.stderr).toBe(0)
    const progress = lines(result.stderr)
    expect(progress[0]).toMatch(/^run \S+: in_progress, \d+\.\ds, 0 polls$/)
    expect(progress.at(-1)).toMatch(/^run \S+: completed, \d+\.\ds, \d+ polls?$/)
    const out = lines(result.stdout)
    expect(out).toContainEqual(expect.stringMatching(/^requirement\s+score\s+reason$/))
    expect(out).toContainEqual(expect.stringMatching(/^list\s+1\.00\s+\S/))
    expect(out).toContainEqual(expect.stringMatching(/^short \*\s+1\.00\s+\S/))
    expect(out.at(-1)).toBe("score 1.00 (all_requirements_met); * mandatory")
    expect(result.stdout).toMatch(/^1\. /m)
  })

  // `script` (util-linux) runs the command on a pseudo-terminal, where the progress line is redrawn in place
  it.skipIf(!existsSync("/usr/bin/script"))("on a terminal, the progress line is redrawn in place", async () => {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} run --reference "Write two tips"`
    const result = await new Promise<Result>((resolve) => {
      execFile("/usr/bin/script", ["-qec", command, "/dev/null"], {
        cwd: root,
        env: { ...process.env, ...noService },
        timeout: 60_000
      }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : 1, stdout, stderr }))
    })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    const redraws = result.stdout.split("\r\x1b[2K").slice(1)
    expect(redraws[0]).toMatch(/^run \S+: in_progress, 0\.\ds, 0 polls/)
    expect(redraws.at(-1)).toMatch(/^run \S+: completed, \d+\.\ds, \d+ polls?\r?\n/)
    expect(result.stdout).toContain("Write two tips")
  })

  it("the newcomer's command works as typed", async () => {
    const result = await cli([
      "run",
      "--reference",
      "Write two tips",
      "--requirement",
      "list=Answer as a numbered list"
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain("Write two tips")
    expect(result.stdout).toMatch(/^list\s+\d\.\d\d/m)
  })

  it("--include adds data_sources; against a service over HTTP", async () => {
    const result = await cli(["run", "Summarise the week", "--include", "data_sources"], { env: asService() })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain("Summarise the week")
  })

  it("a malformed --requirement or an unknown --mandatory name is refused before anything is sent", async () => {
    const malformed = await cli(["run", "--reference", "x", "--requirement", "no-equals-sign"])
    expect(malformed.code).not.toBe(0)
    expect(malformed.stderr).toContain("--requirement needs name=description")
    const unknown = await cli(["run", "--reference", "x", "--requirement", "a=b", "--mandatory", "c"])
    expect(unknown.code).not.toBe(0)
    expect(unknown.stderr).toContain("--mandatory c names no requirement")
    const budget = await cli(["run", "--reference", "x", "--budget", "huge"])
    expect(budget.code).not.toBe(0)
  })
})

describe.concurrent("studio-effect assistants", spawning, () => {
  it("create, list, get, run and delete against a service over HTTP", async () => {
    const env = asService()
    const created = await cli([
      "assistants",
      "create",
      "CLI helper",
      "--system",
      "Answer briefly",
      "--requirement",
      "short=At most 30 words",
      "--mandatory",
      "short"
    ], { env })
    expect(created.code, created.stderr).toBe(0)
    const id = created.stdout.trim()
    expect(id).not.toBe("")

    const listed = await cli(["assistants", "list"], { env })
    expect(listed.code, listed.stderr).toBe(0)
    expect(lines(listed.stdout)).toContain(`${id}  CLI helper`)

    const got = await cli(["assistants", "get", id], { env })
    expect(got.code, got.stderr).toBe(0)
    expect(JSON.parse(got.stdout)).toMatchObject({ id, name: "CLI helper", system_prompt: "Answer briefly" })

    const ran = await cli(["assistants", "run", id, "Say hello"], { env })
    expect(ran.code, ran.stderr).toBe(0)
    expect(ran.stdout).toContain("Say hello")
    expect(lines(ran.stdout)).toContainEqual(expect.stringMatching(/^short \*\s+1\.00/))
    expect(lines(ran.stderr).at(-1)).toMatch(/completed/)

    const deleted = await cli(["assistants", "delete", id], { env })
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.stdout.trim()).toBe(`deleted ${id}`)

    const gone = await cli(["assistants", "get", id], { env })
    expect(gone.code).not.toBe(0)
    expect(lines(gone.stderr)).toEqual([expect.stringMatching(/^studio-effect: NotFound: 404/)])
  })

  it("--reference works for every subcommand of one embedded service", async () => {
    const list = await cli(["assistants", "list", "--reference", "--json"])
    expect(list.code, list.stderr).toBe(0)
    expect(JSON.parse(list.stdout)).toMatchObject({ results: [] })
    const created = await cli(["assistants", "create", "--reference", "--json", "Temp"])
    expect(JSON.parse(created.stdout)).toMatchObject({ name: "Temp" })
  })
})

describe.concurrent("studio-effect serve", spawning, () => {
  it("serves the reference service until interrupted; its options reach the service", async () => {
    const { child, url } = await startServe(["--port", "0", "--api-key", "k1", "--max-body-bytes", "512"])
    const headers = { authorization: "Bearer k1", "content-type": "application/json" }
    const ok = await fetch(`${url}/studio/v1/chat/completions`, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] })
    })
    expect(ok.status).toBe(200)
    const tooLarge = await fetch(`${url}/studio/v1/chat/completions`, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: "fpmodel-mini", messages: [{ role: "user", content: "x".repeat(1000) }] })
    })
    expect(tooLarge.status).toBe(413)
    const otherKey = await fetch(`${url}/studio/v1/assistants`, { headers: { authorization: "Bearer k2" } })
    expect(otherKey.status).toBe(401)
    expect(await stop(child)).toBe(0)
  })

  it("a port in use is one line on stderr and a non-zero exit", async () => {
    const result = await cli(["serve", "--port", String(service.port)])
    expect(result.code).not.toBe(0)
    expect(lines(result.stderr)).toEqual([
      `studio-effect: Cannot serve on 127.0.0.1:${service.port}: the port is in use. Stop what uses it, or choose ` +
      "another with --port (--port 0 picks a free one)"
    ])
  })

  it("an address that is not this machine's is one line on stderr and a non-zero exit", async () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of a machine
    const result = await cli(["serve", "--port", "0", "--host", "192.0.2.1"])
    expect(result.code).not.toBe(0)
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/^studio-effect: Cannot serve on 192\.0\.2\.1:0: .*--host/)
    ])
  })

  it("bad options are refused with what is expected", async () => {
    for (
      const [args, message] of [
        [["--port", "70000"], "--port needs a number from 0 to 65535"],
        [["--max-body-bytes", "0"], "--max-body-bytes needs a whole number of at least 1"],
        [["--rate-limit", "x"], "--rate-limit needs <requests> or <requests>/<seconds>"],
        [["--verbose"], "verbose"]
      ] as const
    ) {
      const result = await cli(["serve", ...args])
      expect(result.code, args.join(" ")).not.toBe(0)
      expect(result.stderr + result.stdout).toContain(message)
    }
  })
})
