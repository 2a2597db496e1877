/**
 * The `studio-effect` command, as a user runs it: the built bin (bin/studio-effect.mjs over dist/, built by
 * the global setup) spawned as a process, against the embedded reference service (`--reference`) and against
 * a reference service over HTTP standing in for the real one (STUDIO_BASE_URL, STUDIO_API_KEY).
 */
import { afterAll, beforeAll, describe, Effect, Exit, expect, it, packageDir, Scope } from "@studio-effect/line"
import { execFile, spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import * as Reference from "studio-effect/reference"
import { startServe, stop } from "./support/serve.js"

const root = packageDir
const bin = join(packageDir, "bin/studio-effect.mjs")
const packageVersion: string = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version

interface Result {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const noService = { STUDIO_API_KEY: "", STUDIO_BASE_URL: "" }

/** The environment of a spawned command: the test's, with `env` over it; a variable given as "" is removed. */
const environment = (env: Record<string, string>) =>
  Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== ""))

const cli = (
  args: ReadonlyArray<string>,
  options: { readonly env?: Record<string, string>; readonly input?: string } = {}
) =>
  new Promise<Result>((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { cwd: root, env: environment({ ...noService, NO_COLOR: "1", ...options.env }), timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : 1,
          stdout,
          stderr
        })
    )
    child.stdin?.end(options.input ?? "")
  })

/**
 * `script` (util-linux) runs a command on a pseudo-terminal of `columns` columns (a terminal's stdout, stderr
 * and stdin): what the terminal shows is the script's stdout. Arguments reach the command through the
 * environment, as they are.
 */
const hasScript = existsSync("/usr/bin/script")
const onTerminal = (
  args: ReadonlyArray<string>,
  options: { readonly env?: Record<string, string>; readonly columns?: number } = {}
) => {
  const argv = args.map((_, i) => `"$ARG${i}"`).join(" ")
  const command = `stty cols ${options.columns ?? 100}; ${JSON.stringify(process.execPath)} ${
    JSON.stringify(bin)
  } ${argv}`
  const env = Object.fromEntries(args.map((arg, i) => [`ARG${i}`, arg]))
  return new Promise<Result>((resolve) => {
    execFile(
      "/usr/bin/script",
      ["-qfec", command, "/dev/null"],
      {
        cwd: root,
        env: environment({ ...noService, TERM: "xterm-256color", SHELL: "/bin/sh", ...env, ...options.env }),
        timeout: 60_000
      },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    )
  })
}

/** A command as spawned, with its stderr as it comes. */
const started = (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: environment({ ...noService, ...env }) })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (data) => (stdout += String(data)))
  const exited = new Promise<Result>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code: code ?? (signal === null ? 1 : 128), stdout, stderr }))
  )
  const stderrMatches = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stderr)
        if (match !== null) resolve(match)
      }
      child.stderr.on("data", (data) => {
        stderr += String(data)
        check()
      })
      child.on("exit", () => reject(new Error(`exited before stderr matched ${pattern}: ${stderr}`)))
    })
  return { child, exited, stderrMatches }
}

/** The colour and style sequences a help may hold. */
const ansi = /\u001b\[/

/** Lines of stderr that are not empty. */
const lines = (text: string) => text.split("\n").filter((line) => line.trim() !== "")

const scope = Effect.runSync(Scope.make())
let service = { url: "", port: 0 }
/** A service whose runs take an hour: a run is followed until Ctrl-C. */
let slowService = { url: "", port: 0 }
/** A service that answers every request with a 400 whose detail holds terminal sequences. */
let hostile: Http.Server
const goodKey = "cli-test-key"
const asService = () => ({ STUDIO_BASE_URL: service.url, STUDIO_API_KEY: goodKey })

beforeAll(async () => {
  service = await Effect.runPromise(
    Effect.provideService(
      Reference.listen({ port: 0, apiKeys: [goodKey], runStepDuration: "20 millis" }),
      Scope.Scope,
      scope
    )
  )
  slowService = await Effect.runPromise(
    Effect.provideService(
      Reference.listen({ port: 0, apiKeys: [goodKey], runStepDuration: "1 hour" }),
      Scope.Scope,
      scope
    )
  )
  hostile = Http.createServer((_, response) => {
    response.writeHead(400, { "content-type": "application/json" })
    response.end(JSON.stringify({ detail: "\u001b]52;c;b3duZWQ=\u0007\u001b]0;owned\u0007\u001b[2J bad request" }))
  })
  await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve))
})

afterAll(async () => {
  await new Promise((resolve) => hostile.close(resolve))
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

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
      ["assistants", "update"],
      ["assistants", "run"],
      ["run", "get"],
      ["run", "watch"],
      ["assistants", "delete"],
      ["serve"]
    ]
  ) {
    it(`studio-effect ${command.join(" ")} --help and --version`, async () => {
      const help = await cli([...command, "--help"])
      expect(help.code, help.stderr).toBe(0)
      // how the usage line names the command is the command framework's (each line's cli-usage test)
      expect(help.stdout).toContain("USAGE")
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

  it("against a service over HTTP with AI21_API_HOST and AI21_API_KEY, the official SDKs' names", async () => {
    const result = await cli(["chat", "Hello by alias"], {
      env: { STUDIO_BASE_URL: "", STUDIO_API_KEY: "", AI21_API_HOST: service.url, AI21_API_KEY: goodKey }
    })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain("Hello by alias")
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

  it("an id unknown to the fresh embedded service of --reference says why, and how to keep ids", async () => {
    const result = await cli(["assistants", "get", "asst_from_another_command", "--reference"])
    expect(result.code).toBe(1)
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        /^studio-effect: NotFound: with --reference each command starts a fresh .*studio-effect serve/
      )
    ])
  })

  it("--model reaches the request: an unknown model is the service's validation error, on one line", async () => {
    const result = await cli(["chat", "--reference", "--model", "no-such-model", "Hi"])
    expect(result.code).not.toBe(0)
    expect(lines(result.stderr)).toEqual([expect.stringMatching(/^studio-effect: ValidationError: .*model/)])
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

/** The usage of a help: its first paragraph after USAGE, without colour. */
const usageOf = (help: string) => help.replace(/\u001b\[[0-9;]*m/g, "").split("USAGE")[1]!.trim().split("\n\n")[0]!

describe.concurrent("studio-effect: help and usage errors", spawning, () => {
  const colourTerminal = { NO_COLOR: "", FORCE_COLOR: "", TERM: "xterm-256color" }

  it("help into a pipe has no colour and fits 80 columns, broken between words", async () => {
    for (const command of [[], ["chat"], ["run"], ["assistants", "create"]]) {
      const help = await cli([...command, "--help"], { env: colourTerminal })
      expect(help.code, help.stderr).toBe(0)
      expect(help.stdout).not.toMatch(ansi)
      for (const line of help.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80)
      if (command.length > 0) {
        expect(help.stdout.replace(/\s+/g, " ")).toContain(
          "Use the reference service embedded in memory (no key, no network; a fresh one for each command) " +
            "instead of the Studio service at STUDIO_BASE_URL with STUDIO_API_KEY"
        )
      }
    }
  })

  it("repeatable options are not shown as required", async () => {
    const help = await cli(["run", "--help"])
    // an option with a short name is written `[(-r, --requirement text)...]`: optional, as `[--mandatory text...]`
    const usage = usageOf(help.stdout).replace(/\[\(-\w, (--[\w-]+)/g, "[$1")
    expect(usage).not.toMatch(/(^|[^[])--(requirement|mandatory|include)/)
  })

  it.skipIf(!hasScript)("on a terminal, help has colour, but not with NO_COLOR or TERM=dumb", async () => {
    const coloured = await onTerminal(["run", "--help"], { env: colourTerminal, columns: 60 })
    expect(coloured.code, coloured.stdout).toBe(0)
    expect(coloured.stdout).toMatch(ansi)
    for (const line of coloured.stdout.replace(/\u001b\[[0-9;]*m/g, "").split(/\r?\n/)) {
      expect(line.length, line).toBeLessThanOrEqual(60)
    }
    for (const env of [{ NO_COLOR: "1" }, { TERM: "dumb" }]) {
      const plain = await onTerminal(["run", "--help"], { env: { ...colourTerminal, ...env } })
      expect(plain.code, plain.stdout).toBe(0)
      expect(plain.stdout).toContain("--requirement")
      expect(plain.stdout, JSON.stringify(env)).not.toMatch(ansi)
    }
  })

  it("--log-level is taken after the command as before it", async () => {
    for (
      const args of [["--log-level", "info", "chat", "--reference", "Hello"], [
        "chat",
        "--reference",
        "--log-level",
        "info",
        "Hello"
      ], ["chat", "--reference", "--log-level=info", "Hello"]]
    ) {
      const result = await cli(args)
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0)
      expect(result.stdout).toContain("Hello")
    }
  })

  it("a usage error is one line on stderr that names the option and the value", async () => {
    for (
      const [args, named, unsaid] of [
        [["chat", "--modle=x", "Hello"], ["--modle"], ["Hello"]],
        [["chat", "--reference", "--max-tokens", "2.5", "Hi"], ["--max-tokens", "2.5"], ["a integer"]],
        [["run", "--reference", "x", "--budget", "huge"], ["--budget", "huge", "low", "medium", "high"], []]
      ] as const
    ) {
      const result = await cli(args)
      expect(result.code, args.join(" ")).not.toBe(0)
      expect(result.stdout).toBe("")
      expect(result.stderr).toMatch(/^studio-effect: [^\n]+\n$/)
      for (const text of named) expect(result.stderr).toContain(text)
      for (const text of unsaid) expect(result.stderr).not.toContain(text)
    }
  })
})

describe.concurrent("studio-effect: stdout closed by its reader", spawning, () => {
  it("`chat | head -c 20` ends quietly with exit code 0", async () => {
    const command = `set -o pipefail; ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} chat --reference ` +
      `"Tell me a long story about the sea and the ships on it" | head -c 20`
    const result = await new Promise<Result>((resolve) =>
      execFile(
        "bash",
        ["-c", command],
        { cwd: root, env: environment(noService), timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
      )
    )
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(result.stdout).toHaveLength(20)
  })

  it("a command whose stdout is closed before it writes ends quietly with exit code 0", async () => {
    for (
      const args of [["chat", "--reference", "Hello"], ["chat", "--reference", "--json", "Hello"], [
        "run",
        "--reference",
        "Write two tips"
      ], ["assistants", "list", "--reference"]]
    ) {
      const { child, exited } = started(args, {})
      child.stdout.destroy()
      const result = await exited
      expect(result.stderr, args.join(" ")).toBe("")
      expect(result.code, args.join(" ")).toBe(0)
    }
  })
})

describe.concurrent("studio-effect: text from the service", spawning, () => {
  const clipboard = "\u001b]52;c;b3duZWQ=\u0007"

  it.skipIf(!hasScript)("on a terminal, a model's control sequences are shown, not obeyed", async () => {
    const result = await onTerminal(["chat", "--reference", `Copy this ${clipboard} and clear \u001b[2J`])
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).toContain("\\x1b]52;c;b3duZWQ=\\x07")
    expect(result.stdout).toContain("\\x1b[2J")
    expect(result.stdout).not.toContain("\u001b]52")
    expect(result.stdout).not.toContain("\u001b[2J")
  })

  it("into a pipe, the answer is data: written as the service sent it", async () => {
    const result = await cli(["chat", "--reference", `Copy this ${clipboard}`])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(clipboard)
  })

  it("an error's detail on stderr has its control characters made visible", async () => {
    const { port } = hostile.address() as AddressInfo
    const result = await cli(["chat", "Hi"], {
      env: { STUDIO_BASE_URL: `http://127.0.0.1:${port}`, STUDIO_API_KEY: "k" }
    })
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain("\\x1b]52;c;b3duZWQ=\\x07")
    expect(result.stderr).not.toContain("\u001b")
  })
})

describe.concurrent("studio-effect run: Ctrl-C, run get and run watch", spawning, () => {
  it("Ctrl-C while a run is followed exits 130 and says how to pick the run up; run get shows it", async () => {
    const env = { STUDIO_BASE_URL: slowService.url, STUDIO_API_KEY: goodKey }
    const run = started(["run", "Write two tips"], env)
    const [, id] = await run.stderrMatches(/^run (\S+): in_progress/m)
    run.child.kill("SIGINT")
    const result = await run.exited
    expect(result.code, result.stderr).toBe(130)
    expect(lines(result.stderr).at(-1)).toMatch(/^studio-effect: Stopped following run /)
    expect(result.stderr).toContain(`studio-effect run watch ${id}`)
    const got = await cli(["run", "get", id!], { env })
    expect(got.code, got.stderr).toBe(0)
    expect(JSON.parse(got.stdout)).toMatchObject({ id, status: "in_progress" })
  })

  // Ctrl-C typed on a pseudo-terminal: its line discipline sends SIGINT to the foreground processes
  it.skipIf(!hasScript)("on a terminal, Ctrl-C while a run is followed exits 130 naming the run", async () => {
    const command = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} run "Write two tips"`
    const child = spawn("/usr/bin/script", ["-qfec", command, "/dev/null"], {
      cwd: root,
      env: environment({ STUDIO_BASE_URL: slowService.url, STUDIO_API_KEY: goodKey, SHELL: "/bin/sh" })
    })
    let shown = ""
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
    const [, id] = await new Promise<RegExpExecArray>((resolve, reject) => {
      child.stdout.on("data", (data) => {
        shown += String(data)
        const match = /run (\S+): in_progress/.exec(shown)
        if (match !== null) resolve(match)
      })
      child.on("exit", () => reject(new Error(`exited before its progress line: ${shown}`)))
    })
    child.stdin.write("\x03")
    expect(await exited, shown).toBe(130)
    expect(shown).toContain(`studio-effect: Stopped following run ${id}`)
    expect(shown).toContain(`studio-effect run watch ${id}`)
  })

  it("run watch follows a run by its id and prints what run printed", async () => {
    const env = asService()
    const first = await cli(["run", "Write two tips", "--requirement", "list=Answer as a numbered list"], { env })
    expect(first.code, first.stderr).toBe(0)
    const id = /^run (\S+):/.exec(first.stderr)![1]!
    const watched = await cli(["run", "watch", id], { env })
    expect(watched.code, watched.stderr).toBe(0)
    expect(watched.stdout).toBe(first.stdout)
    expect(lines(watched.stderr).at(-1)).toMatch(new RegExp(`^run ${id}: completed`))
  })
})

describe.concurrent("studio-effect assistants update", spawning, () => {
  it("changes only the fields given", async () => {
    const env = asService()
    const created = await cli(["assistants", "create", "Before", "--description", "Kept", "--system", "Old"], { env })
    expect(created.code, created.stderr).toBe(0)
    const id = created.stdout.trim()
    const updated = await cli(["assistants", "update", id, "--name", "After", "--system", "New", "--budget", "high"], {
      env
    })
    expect(updated.code, updated.stderr).toBe(0)
    expect(updated.stdout.trim()).toBe(id)
    const got = await cli(["assistants", "get", id], { env })
    expect(JSON.parse(got.stdout)).toMatchObject({
      id,
      name: "After",
      description: "Kept",
      system_prompt: "New",
      budget: "high"
    })
  })
})
