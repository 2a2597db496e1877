/**
 * The errors of the Promise API as code without Effect meets them, over a real socket (a server on 127.0.0.1
 * answering as the service does when it refuses): each prints as a Node error does (`console.error`,
 * `util.inspect`, `String`), with its class name, message, status and request id; gives the delay asked for
 * in milliseconds (`retryAfterMs`) and the answer's headers as a plain object; is an instance of the class a
 * user imports from `studio-effect/promise` or `studio-effect`; and never shows the API key, even when the
 * server echoes it everywhere.
 */
import { afterAll, beforeAll, describe, expect, it, packageDir } from "@studio-effect/line"
import { Console } from "node:console"
import { mkdirSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { PassThrough } from "node:stream"
import { inspect } from "node:util"
import { StudioError } from "studio-effect"
import { ApiError, AuthError, NotFound, RateLimit, Studio } from "studio-effect/promise"
import { emitRunnable, runNode } from "./support/runnable.js"

const request = { model: "fpmodel-mini", messages: [{ role: "user" as const, content: "Hi" }] }
const key = "sk-printing-key-5d1c9e"

/** How the server answers each path: as the service does when it refuses, echoing the key where asked. */
const answer = (req: IncomingMessage, res: ServerResponse): void => {
  const authorization = req.headers["authorization"] ?? ""
  const send = (status: number, headers: Record<string, string>, detail: string) => {
    res.writeHead(status, { "content-type": "application/json", ...headers })
    res.end(JSON.stringify({ detail }))
  }
  req.resume()
  req.on("end", () => {
    if (req.url?.startsWith("/limited/")) {
      return send(
        429,
        { "request-id": "req-429", "retry-after-ms": "2000", "x-ratelimit-remaining-requests": "0" },
        "Too many requests."
      )
    }
    if (req.url?.startsWith("/echo/")) {
      // a server that copies what it was sent into every place an error reads
      return send(429, {
        "request-id": `req ${authorization}`,
        "retry-after": "3",
        "x-echo": authorization
      }, `Slow down, ${authorization}`)
    }
    if (req.url?.startsWith("/refused/")) {
      return send(401, { "x-request-id": "req-401", "x-echo": authorization }, `Forbidden: ${authorization}`)
    }
    if (req.url?.startsWith("/broken/")) return send(503, { "retry-after": "1", "request-id": "req-503" }, "Overloaded")
    send(404, { "request-id": "req-404" }, "Not Found")
  })
}

let server: Server
let origin: string

beforeAll(async () => {
  server = createServer(answer)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const studioAt = (path: string) =>
  new Studio({ apiKey: key, baseUrl: `${origin}/${path}`, allowInsecureHttp: true, maxRetries: 0 })

const rejectionOf = async (path: string, call: (studio: Studio) => Promise<unknown>): Promise<unknown> => {
  const studio = studioAt(path)
  try {
    return await call(studio).then(() => undefined, (error: unknown) => error)
  } finally {
    await studio.close()
  }
}

/** What `console.error(value)` writes, through a console of its own over a stream. */
const consoleErrorOf = (value: unknown): string => {
  const stream = new PassThrough()
  const chunks: Array<Buffer> = []
  stream.on("data", (chunk: Buffer) => chunks.push(chunk))
  new Console({ stdout: stream, stderr: stream, colorMode: false }).error(value)
  return Buffer.concat(chunks).toString("utf8")
}

const limitedMessage = "429 Too many requests (request id req-429). Retry after 2s, or lower your concurrency."

describe("an error of the Promise API", () => {
  it("prints as a Node error: class name and message, then status, request id and retryAfterMs", async () => {
    const error = await rejectionOf("limited", (studio) => studio.chat.create(request))
    expect(error).toBeInstanceOf(RateLimit)
    const printed = `[RateLimit: ${limitedMessage}] {\n  status: 429,\n  requestId: 'req-429',\n  retryAfterMs: 2000\n}`
    expect(inspect(error)).toBe(printed)
    expect(consoleErrorOf(error)).toBe(`${printed}\n`)
    expect(String(error)).toBe(`RateLimit: ${limitedMessage}`)
    // inside other values too, as Node nests errors
    expect(inspect({ error })).toBe(`{\n  error: ${printed.replaceAll("\n", "\n  ")}\n}`)
  })

  it("gives retryAfterMs, status, requestId and the answer's headers as plain values", async () => {
    const error = await rejectionOf("limited", (studio) => studio.chat.create(request)) as RateLimit
    expect([error.status, error.requestId, error.retryAfterMs]).toEqual([429, "req-429", 2000])
    expect(Object.getPrototypeOf(error.headers)).toBe(Object.prototype)
    expect(error.headers).toMatchObject({
      "request-id": "req-429",
      "retry-after-ms": "2000",
      "x-ratelimit-remaining-requests": "0",
      "content-type": "application/json"
    })
    for (const value of Object.values(error.headers ?? {})) expect(typeof value).toBe("string")

    const overloaded = await rejectionOf("broken", (studio) => studio.models.list()) as ApiError
    expect(overloaded).toBeInstanceOf(ApiError)
    expect([overloaded.status, overloaded.retryAfterMs, overloaded.headers?.["request-id"]]).toEqual([
      503,
      1000,
      "req-503"
    ])
    expect(inspect(overloaded)).toMatch(
      /^\[ApiError: 503 Overloaded \(request id req-503\)\. .*\] \{\n  status: 503,\n  requestId: 'req-503',\n  retryAfterMs: 1000\n\}$/s
    )

    const missing = await rejectionOf("elsewhere", (studio) => studio.assistants.retrieve("asst_1")) as NotFound
    expect(missing).toBeInstanceOf(NotFound)
    expect(inspect(missing)).toMatch(/^\[NotFound: 404 Not Found .*\] \{\n  status: 404,\n  requestId: 'req-404'\n\}$/s)
  })

  it("is an instance of the class imported from studio-effect/promise and from studio-effect alike", async () => {
    const error = await rejectionOf("limited", (studio) => studio.chat.create(request))
    expect(error).toBeInstanceOf(RateLimit)
    expect(error).toBeInstanceOf(StudioError.RateLimit)
    expect(error).toBeInstanceOf(Error)
    expect(StudioError.isRetryable(error as RateLimit)).toBe(true)
    const refused = await rejectionOf("refused", (studio) => studio.chat.create(request))
    expect(refused).toBeInstanceOf(AuthError)
    expect(refused).toBeInstanceOf(StudioError.AuthError)
  })

  it("never shows the API key, even when the server echoes it into the detail, request id and headers", async () => {
    for (const path of ["echo", "refused"]) {
      const error = await rejectionOf(path, (studio) => studio.chat.create(request)) as RateLimit | AuthError
      const shown = [
        inspect(error),
        inspect(error, { showHidden: true, depth: Infinity }),
        consoleErrorOf(error),
        String(error),
        JSON.stringify(error),
        error.stack ?? "",
        JSON.stringify(error.headers)
      ].join("\n")
      expect(shown, path).not.toContain(key)
      expect(error.headers?.["x-echo"], path).toBe("Bearer <redacted>")
    }
  })

  it("prints through console.error in a process of its own, the key nowhere in its output", async () => {
    const dir = join(packageDir, ".promise-errors")
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    try {
      const [program] = emitRunnable(dir, [{
        path: "limited.ts",
        source: [
          `import { RateLimit, Studio } from "studio-effect/promise"`,
          `const studio = new Studio({ allowInsecureHttp: true, maxRetries: 0 })`,
          `try {`,
          `  await studio.chat.create(${JSON.stringify(request)})`,
          `} catch (error) {`,
          `  console.error(error)`,
          `  console.error(String(error))`,
          `  console.log(error instanceof RateLimit, (error as RateLimit).retryAfterMs)`,
          `} finally {`,
          `  await studio.close()`,
          `}`
        ].join("\n")
      }])
      for (const path of ["limited", "echo"]) {
        const ran = await runNode(program!, {
          cwd: dir,
          env: { STUDIO_API_KEY: key, STUDIO_BASE_URL: `${origin}/${path}`, NO_COLOR: "1" }
        })
        expect(ran.code, ran.output).toBe(0)
        expect(ran.output, path).not.toContain(key)
        if (path === "limited") {
          expect(ran.stderr).toBe(
            `[RateLimit: ${limitedMessage}] {\n  status: 429,\n  requestId: 'req-429',\n  retryAfterMs: 2000\n}\n` +
              `RateLimit: ${limitedMessage}\n`
          )
          expect(ran.stdout).toBe("true 2000\n")
        } else {
          expect(ran.stderr).toMatch(
            /^\[RateLimit: 429 Slow down, Bearer <redacted> \(request id req Bearer <redacted>\)/
          )
          expect(ran.stdout).toBe("true 3000\n")
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
