/**
 * The official Python clients (`ai21` 4.2 and `openai`) against `studio-effect serve`, the built command:
 * chat (whole and streamed), a run with the `file_search` options and `response_language: "unset"`, and the
 * `ai21` agents calls, whose `create_and_poll` sends the assistant's stored `response_language` ("unset")
 * and `tool_resources` back with each run. Every call must pass. The clients' virtual environment is made
 * once, offline, by `scripts/real-clients.mjs`; where Python 3.11 (or the clients) is missing, the test
 * skips itself and says why.
 */
import { afterAll, beforeAll, describe, expect, it } from "@studio-effect/line"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { realClients } from "../support/realClients.js"
import { startServe, stop } from "../support/serve.js"

const replay = fileURLToPath(new URL("../../../core/test/fixtures/realClients/replay.py", import.meta.url))

const clients = await realClients()
const skip = clients.skip

const key = "python-clients-key"

let server: { readonly child: ChildProcess; readonly url: string } | undefined
beforeAll(async () => {
  if (skip === undefined) server = await startServe(["--port", "0", "--api-key", key])
})
afterAll(async () => {
  if (server !== undefined) await stop(server.child)
})

/** Runs the replay against the server: each call's line of JSON, and the exit status. */
const runReplay = (url: string) =>
  new Promise<{ readonly calls: ReadonlyArray<{ call: string; ok: boolean; detail: string }>; readonly code: number }>(
    (resolve, reject) => {
      const child = spawn(clients.python!, [replay, url, key], {
        env: { ...process.env, PYTHONPATH: clients.pythonPath }
      })
      let out = ""
      child.stdout.on("data", (data) => (out += String(data)))
      child.on("error", reject)
      child.on("exit", (code) =>
        resolve({
          calls: out.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line)),
          code: code ?? -1
        }))
    }
  )

describe.skipIf(skip !== undefined)(
  skip === undefined ? "the official Python clients" : `the official Python clients (skipped: ${skip})`,
  () => {
    it(
      "ai21 and openai: chat, runs and every agents call pass against studio-effect serve; hostile bodies are 4xx",
      async () => {
        const { calls, code } = await runReplay(server!.url)
        expect(calls.filter((call) => !call.ok)).toEqual([])
        expect(calls.map((call) => call.call)).toEqual([
          "ai21 chat.completions.create",
          "ai21 chat.completions.create stream",
          "openai chat.completions.create",
          "openai chat.completions.create stream",
          "ai21 chat.completions.create with reasoning, its message sent back",
          "openai chat.completions.create stream with reasoning",
          "ai21 beta.maestro.runs.create_and_poll",
          "ai21 beta.agents.create",
          "ai21 beta.agents.get",
          "ai21 beta.agents.list",
          "ai21 beta.agents.modify",
          "ai21 beta.agents.runs.create_and_poll",
          "ai21 beta.agents.runs.create_and_poll with a string input",
          "ai21 beta.agents.delete",
          "openai chat.completions.create with a body nested 200 deep",
          "ai21 beta.maestro.runs.create with a budget and a requirement the service refuses"
        ])
        expect(code).toBe(0)
      },
      120_000
    )
  }
)
