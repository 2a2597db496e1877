/**
 * `serve --log` logs a request by what the client got: a body whose chunked framing is malformed is answered
 * 400 by Node.js itself, and the log line says the client's side (499), never a 5xx for a client's mistake.
 * The built command, spawned on 127.0.0.1, port 0, sent raw bytes over a socket.
 */
import { describe, expect, it, packageDir } from "@studio-effect/line"
import { spawn } from "node:child_process"
import * as net from "node:net"
import { join } from "node:path"

const bin = join(packageDir, "bin/studio-effect.mjs")

/** Sends `bytes` and resolves with everything the server answered before it closed the connection. */
const exchange = (port: number, bytes: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(bytes))
    let answer = ""
    socket.on("data", (data) => (answer += String(data)))
    socket.on("error", reject)
    socket.on("close", () => resolve(answer))
  })

describe("serve --log", { timeout: 60_000 }, () => {
  it("a malformed chunked body: the client gets a 400, the log a 499 and no 5xx", async () => {
    const child = spawn(process.execPath, [bin, "serve", "--log", "--port", "0"], {
      cwd: packageDir,
      env: { ...process.env, STUDIO_SERVE_API_KEYS: "log-key", STUDIO_API_KEY: "", STUDIO_BASE_URL: "" }
    })
    let out = ""
    const logged = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out)
          if (match !== null) resolve(match)
        }
        child.stdout.on("data", (data) => {
          out += String(data)
          check()
        })
        child.on("exit", () => reject(new Error(`serve exited: ${out}`)))
        check()
      })
    try {
      const [, port] = await logged(/listening on http:\/\/127\.0\.0\.1:(\d+)/)
      const answer = await exchange(
        Number(port),
        "POST /studio/v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer log-key\r\n" +
          "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\nzz\r\nnot a chunk\r\n0\r\n\r\n"
      )
      expect(answer).toMatch(/^HTTP\/1\.1 400 /)
      const [line] = await logged(/^.*http\.status=\d+.*$/m)
      expect(line).toContain("http.status=499")
      expect(line).toContain("http.url=/studio/v1/chat/completions")
      expect(out).not.toMatch(/http\.status=5\d\d/)
    } finally {
      child.kill("SIGINT")
    }
  })
})
