/**
 * `studio-effect serve` under hostile clients, spawned as a user runs it (the built bin, on 127.0.0.1): a
 * JSON Schema nested 100,000 levels deep inside a message, ids with broken percent-escapes, clients that
 * stall their headers, their body or a stream while the server is told to stop, too many connections and
 * too many bytes held by unfinished uploads, keys given outside the command line, and keys that must not
 * see one another's assistants and runs.
 */
import { describe, expect, it, packageDir } from "@studio-effect/line"
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import * as net from "node:net"
import { join } from "node:path"
import { startServe, stop } from "../support/serve.js"
import { tempDirectory } from "../support/tempDirectory.js"

const bin = join(packageDir, "bin/studio-effect.mjs")
const spawning = { timeout: 60_000 }
const chatPath = "/studio/v1/chat/completions"

/** A raw connection to `url`, with everything it received and a promise of its close. */
const connect = (url: string) => {
  const socket = net.connect(Number(new URL(url).port), "127.0.0.1")
  let received = ""
  const waiters: Array<() => void> = []
  socket.setEncoding("utf8")
  socket.on("data", (data: string) => {
    received += data
    for (const wake of waiters.splice(0)) wake()
  })
  socket.on("error", () => {})
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)))
  /** Resolves once what was received contains `text` (or the connection closed). */
  const until = (text: string) =>
    new Promise<string>((resolve) => {
      const check = () => (received.includes(text) || socket.destroyed ? resolve(received) : waiters.push(check))
      check()
      socket.on("close", () => resolve(received))
    })
  const connected = new Promise<void>((resolve) => socket.on("connect", () => resolve()))
  return { socket, closed, until, connected, received: () => received }
}

/** The exit code of `child`, or a failure when it is still running `ms` later (a safety net only). */
const exitWithin = (child: ChildProcess, ms: number) =>
  new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve still running ${ms} ms later`)), ms)
    child.on("exit", (code) => {
      clearTimeout(timer)
      resolve(code)
    })
  })

/** `serve` expected to refuse to start: its exit code and what it wrote on stderr. */
const refusedStart = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) =>
  new Promise<{ readonly code: number | null; readonly stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, "serve", ...args], {
      env: { ...process.env, STUDIO_API_KEY: "", STUDIO_BASE_URL: "", STUDIO_SERVE_API_KEYS: "", ...env }
    })
    let stderr = ""
    child.stderr.on("data", (data) => (stderr += String(data)))
    child.on("close", (code) => resolve({ code, stderr }))
  })

const post = (url: string, path: string, body: unknown, key = "k") =>
  fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })

const get = (url: string, path: string, key = "k") =>
  fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } })

/** The head of a request whose body will never be sent whole: the server has it once `100 Continue` is back. */
const stalledUpload = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`

describe.concurrent(
  "a JSON Schema nested deeper than the service reads, in a JSON-mode system message",
  spawning,
  () => {
    const nested = 100_000
    const deepConst = `{"type":"object","const":${"[".repeat(nested)}${"]".repeat(nested)}}`
    const deepEnum = `{"enum":[${"{\"a\":".repeat(nested)}1${"}".repeat(nested)}]}`

    it("is a 422 at the message's content, streamed or not, never a 500", async () => {
      const { child, url } = await startServe(["--port", "0"])
      try {
        for (const schema of [deepConst, deepEnum]) {
          for (const stream of [false, true]) {
            const answer = await post(url, chatPath, {
              model: "fpmodel-mini",
              response_format: { type: "json_object" },
              stream,
              messages: [
                { role: "system", content: `Answer with JSON. JSON Schema: ${schema}` },
                { role: "user", content: "Go" }
              ]
            })
            expect(answer.status).toBe(422)
            expect(await answer.json()).toEqual({
              detail: [{
                loc: ["body", "messages", 0, "content"],
                msg: "The JSON Schema after \"JSON Schema:\" is nested more than 64 levels deep",
                type: "value_error"
              }]
            })
          }
        }
        // a schema within the limit is still followed
        const shallow = await post(url, chatPath, {
          model: "fpmodel-mini",
          response_format: { type: "json_object" },
          messages: [
            { role: "system", content: `JSON Schema: {"type":"object","const":{"a":[[1]]}}` },
            { role: "user", content: "Go" }
          ]
        })
        expect(shallow.status).toBe(200)
        expect(JSON.parse((await shallow.json()).choices[0].message.content)).toEqual({ a: [[1]] })
      } finally {
        await stop(child)
      }
    })
  }
)

describe.concurrent("an id with a broken percent-escape", spawning, () => {
  it("is a 404, as any id the service does not hold", async () => {
    const { child, url } = await startServe(["--port", "0"])
    try {
      for (const path of ["/studio/v1/assistants/%E0%A4%A", "/studio/v1/maestro/runs/%ZZ", "/studio/v1/assistants/%"]) {
        const answer = await get(url, path)
        expect(answer.status, path).toBe(404)
        expect(await answer.json()).toEqual({ detail: "Not Found" })
      }
      const run = await post(url, "/studio/v1/assistants/%ZZ/run", {})
      expect(run.status).toBe(404)
    } finally {
      await stop(child)
    }
  })
})

describe.concurrent("SIGTERM and SIGINT while clients stall", spawning, () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "%s: serve exits at once, the open stream ends with an event saying so, the stalled body gets 503",
    async (signal) => {
      const { child, url } = await startServe(["--port", "0", "--stream-delay-ms", "600000"])
      const headers = connect(url)
      await headers.connected
      headers.socket.write("GET /studio/v1/assistants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\n")
      const upload = connect(url)
      upload.socket.write(stalledUpload(chatPath, 1000))
      await upload.until("100 Continue")
      upload.socket.write("{\"model\": \"fpmodel-mini\", \"mess")
      const stream = connect(url)
      const body = JSON.stringify({ model: "fpmodel-mini", stream: true, messages: [{ role: "user", content: "Hi" }] })
      stream.socket.write(
        `POST ${chatPath} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
      )
      await stream.until("data: {")
      const exited = exitWithin(child, 8_000)
      child.kill(signal)
      expect(await exited).toBe(0)
      const streamed = await stream.closed
      expect(streamed).not.toContain("data: [DONE]")
      expect(streamed).toMatch(/data: \{"detail":"The service is shutting down[^"]*"\}\n\n/)
      expect(await upload.closed).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 503 /)
      await headers.closed
    }
  )
})

describe.concurrent("connections and unfinished requests are bounded", spawning, () => {
  it("--max-connections: a connection past the limit is closed at once, those held are still served", async () => {
    const { child, url } = await startServe(["--port", "0", "--max-connections", "2"])
    try {
      const held = [connect(url), connect(url)]
      await Promise.all(held.map((c) => c.connected))
      const refused = connect(url)
      expect(await refused.closed).toBe("")
      held[1]!.socket.write("GET /studio/v1/assistants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\n\r\n")
      expect(await held[1]!.until("\r\n\r\n")).toMatch(/^HTTP\/1\.1 200 /)
      for (const connection of held) connection.socket.destroy()
    } finally {
      await stop(child)
    }
  })

  it("--headers-timeout-ms and --request-timeout-ms: a client stalling its headers or its body gets 408", async () => {
    const { child, url } = await startServe([
      "--port",
      "0",
      "--headers-timeout-ms",
      "200",
      "--request-timeout-ms",
      "400"
    ])
    try {
      const headers = connect(url)
      headers.socket.write("GET /studio/v1/assistants HTTP/1.1\r\nHost: x\r\n")
      expect(await headers.closed).toMatch(/^HTTP\/1\.1 408 /)
      const upload = connect(url)
      upload.socket.write(stalledUpload(chatPath, 1000))
      await upload.until("100 Continue")
      upload.socket.write("{\"model\"")
      expect(await upload.closed).toMatch(/HTTP\/1\.1 408 /)
    } finally {
      await stop(child)
    }
  })

  it("--max-pending-body-bytes: stalled uploads share the budget; those past it get 503", async () => {
    const { child, url } = await startServe(["--port", "0", "--max-pending-body-bytes", "1048576"])
    try {
      // 8 uploads of 300,000 bytes each, never finished: at most 3 fit in 1 MiB, so at least 5 are refused
      const uploads = Array.from({ length: 8 }, () => connect(url))
      const refused: Array<string> = []
      await new Promise<void>((resolve) => {
        for (const upload of uploads) {
          upload.socket.write(stalledUpload(chatPath, 500_000))
          void upload.until("100 Continue").then(() => {
            upload.socket.write(
              `{"model": "fpmodel-mini", "messages": [{"role": "user", "content": "${"x".repeat(300_000)}`
            )
            return upload.until("HTTP/1.1 503 ")
          }).then((answer) => {
            if (answer.includes("HTTP/1.1 503 ")) refused.push(answer)
            if (refused.length === 5) resolve()
          })
        }
      })
      const held = uploads.filter((upload) => !upload.received().includes("HTTP/1.1 503 "))
      expect(held.length).toBeLessThanOrEqual(3)
      for (const answer of refused) expect(answer).toContain("hold 1048576 bytes, the most it keeps")
      for (const upload of uploads) upload.socket.destroy()
    } finally {
      await stop(child)
    }
  })

  it("--max-pending-body-bytes: a body that would pass the bytes held by unfinished bodies gets 503", async () => {
    const { child, url } = await startServe(["--port", "0", "--max-pending-body-bytes", "65536"])
    try {
      const upload = connect(url)
      upload.socket.write(stalledUpload(chatPath, 500_000))
      await upload.until("100 Continue")
      upload.socket.write(`{"model": "fpmodel-mini", "messages": [{"role": "user", "content": "${"x".repeat(200_000)}`)
      const answer = await upload.closed
      expect(answer).toMatch(/HTTP\/1\.1 503 /)
      expect(answer).toMatch(/retry-after: 1/i)
      expect(answer).toContain("hold 65536 bytes")
      // the budget is given back: a whole request is served
      const after = await post(url, chatPath, { model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] })
      expect(after.status).toBe(200)
    } finally {
      await stop(child)
    }
  })
})

describe.concurrent("accepted keys from the environment and a file", spawning, () => {
  it("STUDIO_SERVE_API_KEYS and --api-key-file: every listed key is accepted, none shows in the process list", async ({ onTestFinished }) => {
    const dir = tempDirectory("serve-keys-", onTestFinished)
    const file = join(dir, "keys")
    writeFileSync(file, "# keys of the team\nfile-key-1\n\n  file-key-2  \n")
    const { child, url } = await startServe(["--port", "0", "--api-key-file", file], {
      STUDIO_SERVE_API_KEYS: "env-key-1, env-key-2"
    })
    try {
      for (const key of ["env-key-1", "env-key-2", "file-key-1", "file-key-2"]) {
        expect((await get(url, "/studio/v1/assistants", key)).status, key).toBe(200)
      }
      expect((await get(url, "/studio/v1/assistants", "other")).status).toBe(401)
      const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, "utf8")
      expect(commandLine).not.toMatch(/env-key|file-key/)
    } finally {
      await stop(child)
    }
  })

  it("a key file that cannot be read, or a key with whitespace inside, stops serve with one line", async ({ onTestFinished }) => {
    const dir = tempDirectory("serve-keys-", onTestFinished)
    const missing = await refusedStart(["--port", "0", "--api-key-file", join(dir, "missing")])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^studio-effect: Cannot read --api-key-file .*missing: ENOENT\n$/)
    const spaced = await refusedStart(["--port", "0"], { STUDIO_SERVE_API_KEYS: "good, bad key" })
    expect(spaced.code).toBe(1)
    expect(spaced.stderr).toBe("studio-effect: STUDIO_SERVE_API_KEYS: entry 2 holds whitespace inside a key\n")
  })
})

describe.concurrent("each accepted key has its own assistants and runs", spawning, () => {
  const assistant = { name: "Mine", models: ["fpmodel-mini"] }
  const run = { input: "Write one line.", models: ["fpmodel-mini"] }

  it("one key never sees another's; without accepted keys, every caller shares one store", async () => {
    const separate = await startServe(["--port", "0", "--api-key", "alice", "--api-key", "bob"])
    const shared = await startServe(["--port", "0"])
    try {
      const { url } = separate
      const created = await (await post(url, "/studio/v1/assistants", assistant, "alice")).json()
      const started = await (await post(url, "/studio/v1/maestro/runs", run, "alice")).json()
      expect((await get(url, `/studio/v1/assistants/${created.id}`, "alice")).status).toBe(200)
      expect((await get(url, `/studio/v1/assistants/${created.id}`, "bob")).status).toBe(404)
      expect((await get(url, `/studio/v1/maestro/runs/${started.id}`, "bob")).status).toBe(404)
      expect((await get(url, `/studio/v1/maestro/runs/${started.id}`, "alice")).status).toBe(200)
      expect(await (await get(url, "/studio/v1/assistants", "bob")).json()).toEqual({ results: [] })
      const removed = await fetch(`${url}/studio/v1/assistants/${created.id}`, {
        method: "DELETE",
        headers: { authorization: "Bearer bob" }
      })
      expect(removed.status).toBe(404)
      expect((await (await get(url, "/studio/v1/assistants", "alice")).json()).results).toHaveLength(1)

      const open = await (await post(shared.url, "/studio/v1/assistants", assistant, "one")).json()
      expect((await get(shared.url, `/studio/v1/assistants/${open.id}`, "two")).status).toBe(200)
    } finally {
      await Promise.all([stop(separate.child), stop(shared.child)])
    }
  })

  it("ids differ from one start to the next, unless --seed asks for a sequence", async () => {
    const firstId = async (args: ReadonlyArray<string>) => {
      const { child, url } = await startServe(["--port", "0", ...args])
      try {
        return (await (await post(url, "/studio/v1/assistants", assistant)).json()).id as string
      } finally {
        await stop(child)
      }
    }
    const [random1, random2, seeded1, seeded2] = await Promise.all([
      firstId([]),
      firstId([]),
      firstId(["--seed", "7"]),
      firstId(["--seed", "7"])
    ])
    expect(random1).not.toBe(random2)
    expect(seeded1).toBe(seeded2)
  })
})

describe.concurrent("--log", spawning, () => {
  it("logs one line per request answered, with its method, address and status, and never the key", async () => {
    const { child, url } = await startServe(["--port", "0", "--log"])
    let output = ""
    const waiters: Array<() => void> = []
    const collect = (data: unknown) => {
      output += String(data)
      for (const wake of waiters.splice(0)) wake()
    }
    child.stdout!.on("data", collect)
    child.stderr!.on("data", collect)
    const logged = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => (output.includes(text) ? resolve() : waiters.push(check))
        check()
      })
    try {
      const answer = await post(
        url,
        chatPath,
        { model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] },
        "sk-logged-key"
      )
      expect(answer.status).toBe(200)
      await answer.text()
      expect((await get(url, "/studio/v1/assistants/asst_unknown", "sk-logged-key")).status).toBe(404)
      await logged("asst_unknown")
      const lines = output.split("\n").filter((line) => line.includes("/studio/v1/"))
      expect(lines).toHaveLength(2)
      expect(lines[0]).toMatch(/^(?=.*\bPOST\b)(?=.*\/studio\/v1\/chat\/completions)(?=.*\b200\b)/)
      expect(lines[1]).toMatch(/^(?=.*\bGET\b)(?=.*\/studio\/v1\/assistants\/asst_unknown)(?=.*\b404\b)/)
      expect(output).not.toContain("sk-logged-key")
    } finally {
      await stop(child)
    }
  })
})
