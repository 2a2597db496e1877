/**
 * `studio-effect serve` of the Effect 4 line on 127.0.0.1, port 0, run from its sources in a process of its
 * own (the same command as the built bin), its URL read from its banner.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const main = fileURLToPath(new URL("./serve-main.mjs", import.meta.url))
const packageDir = fileURLToPath(new URL("../..", import.meta.url))

export interface Serve {
  readonly url: string
  readonly stop: () => Promise<void>
}

/** Starts `serve --port 0` with `args`. */
export const startServe = (args: ReadonlyArray<string> = []): Promise<Serve> =>
  new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      ["--conditions=@studio-effect/source", "--import", "tsx", main, "serve", "--port", "0", ...args],
      {
        cwd: packageDir,
        env: { ...process.env, STUDIO_API_KEY: "", STUDIO_BASE_URL: "", STUDIO_SERVE_API_KEYS: "" },
        stdio: ["ignore", "pipe", "pipe"]
      }
    )
    let out = ""
    child.stdout!.on("data", (data) => {
      out += String(data)
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match !== null) {
        resolve({
          url: match[1]!,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done()
              child.on("exit", () => done())
              child.kill("SIGINT")
            })
        })
      }
    })
    child.stderr!.on("data", (data) => {
      out += String(data)
    })
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)))
  })
