/**
 * Durable runs on Effect Cluster with PostgreSQL storage, across processes: runner processes
 * (`test/line/clusterRunner.ts` of each line, run against the built package) share a PostgreSQL server of the
 * test's own and execute `DurableMaestro.Workflow` against the reference service over HTTP, whose runs take
 * a few seconds. A runner killed with SIGKILL while it polls is resumed by another, and the service sees one
 * create; two runners split the workflows, and one stopping hands its workflows to the other. A durable tool
 * loop (`DurableChat.runTools`) killed between two tool calls is resumed by another runner, and each tool's
 * side effect (an event the runner writes) happens once.
 */
import { afterAll, beforeAll, describe, Effect, Exit, expect, it, packageDir, Scope } from "@studio-effect/line"
import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import * as Reference from "studio-effect/reference"
import { freePort } from "../support/freePort.js"
import { type Postgres, startPostgres } from "../support/postgres.js"
import { emitRunnable } from "../support/runnable.js"
import { type RunnerEvent, type RunnerProcess, spawnRunner } from "../support/runnerProcess.js"

const key = "cluster-key"
const scope = Effect.runSync(Scope.make())
const directory = join(packageDir, ".runnable", `cluster-${process.pid}`)
let postgres: Postgres | undefined
let service = { url: "" }
let creates = 0
let runnerFile = ""
const runners: Array<RunnerProcess> = []

beforeAll(async () => {
  postgres = await startPostgres()
  service = await Effect.runPromise(
    Effect.provideService(
      Reference.listen({
        port: 0,
        apiKeys: [key],
        // a `high` run takes its nine steps: about 2.7 seconds
        runStepDuration: "300 millis",
        failRun: () => {
          creates++
          return undefined
        }
      }),
      Scope.Scope,
      scope
    )
  )
  const source = readFileSync(join(packageDir, "test/line/clusterRunner.ts"), "utf8")
  runnerFile = emitRunnable(directory, [{ path: "clusterRunner.ts", source }])[0]!
}, 120_000)

afterAll(async () => {
  await Promise.all(runners.map((runner) => runner.stop("SIGKILL")))
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await postgres?.stop()
  rmSync(directory, { recursive: true, force: true })
})

/**
 * A runner process on `database` (each test has its own, so no runner of another test shares its shards),
 * calling the service at `url`.
 */
const runner = async (
  name: string,
  database: string,
  env: Record<string, string> = {},
  url = service.url
): Promise<RunnerProcess> => {
  const started = spawnRunner(name, runnerFile, {
    DATABASE_URL: await postgres!.database(database),
    STUDIO_BASE_URL: url,
    STUDIO_API_KEY: key,
    RUNNER_PORT: String(await freePort()),
    ...env
  })
  runners.push(started)
  return started
}

/** How many messages and replies the cluster has stored in `database`. */
const rowsIn = async (database: string) =>
  (await postgres!.query(
    "select 'messages', count(*) from cluster_messages union all select 'replies', count(*) from cluster_replies",
    database
  )).join(", ")

/** Whether any stored row of the cluster's tables in `database` holds `text` (the API key must never be). */
const storedAnywhere = async (database: string, text: string) =>
  (await postgres!.query(
    "select coalesce(string_agg(t::text, ''), '') from (select m::text as t from cluster_messages m union all " +
      "select r::text from cluster_replies r union all select n::text from cluster_runners n) rows",
    database
  )).join("").includes(text)

const isCreate = (event: RunnerEvent) => event.event === "request" && event["method"] === "POST"
const isRetrieve = (event: RunnerEvent) => event.event === "request" && event["method"] === "GET"
const resultOf = (key: string) => (event: RunnerEvent) => event.event === "result" && event["key"] === key
const runOf = (event: RunnerEvent) => event["value"] as { readonly id: string; readonly status: string }

describe("DurableMaestro on Effect Cluster with PostgreSQL", { timeout: 180_000 }, () => {
  it("a runner killed while it polls is resumed by another: one create, the same run", async () => {
    const before = creates
    const first = await runner("runner A", "crash", { RUNNER_EXECUTE: "crash-1" })
    await first.waitFor("a create", isCreate)
    await first.waitFor("a retrieve", isRetrieve)
    await first.stop("SIGKILL")
    const killedAt = performance.now()
    expect(first.events.some(resultOf("crash-1"))).toBe(false)

    const second = await runner("runner B", "crash", { RUNNER_EXECUTE: "crash-1" })
    await second.waitFor("a retrieve", isRetrieve)
    const resumedAt = performance.now()
    const result = runOf(await second.waitFor("the run", resultOf("crash-1")))
    const doneAt = performance.now()
    expect(result.status).toBe("completed")
    expect(creates - before).toBe(1)
    expect(second.events.some(isCreate)).toBe(false)
    // the run the first runner created is the one the second returned
    expect(first.events.some((event) => isRetrieve(event) && String(event["url"]).endsWith(result.id))).toBe(true)

    // the rows hold the run (read back on the resume), never the API key
    expect(await storedAnywhere("crash", result.id)).toBe(true)
    expect(await storedAnywhere("crash", key)).toBe(false)
    console.info(
      `resumed after SIGKILL: first retrieve ${Math.round(resumedAt - killedAt)} ms, run ${
        Math.round(doneAt - killedAt)
      } ms; creates ${creates - before}; rows ${await rowsIn("crash")}; retrieves ${
        first.events.filter(isRetrieve).length
      } + ${second.events.filter(isRetrieve).length}`
    )
  })

  it("two runners split the workflows, and one stopping hands its workflows to the other", async () => {
    const before = creates
    const a = await runner("runner A", "split")
    await a.waitFor("ready", (event) => event.event === "ready")
    const b = await runner("runner B", "split")
    await b.waitFor("ready", (event) => event.event === "ready")
    // the second runner has taken its share of the shards from the first
    await b.waitFor("its shards", (event) => event.event === "shards" && Number(event["held"]) > 0)
    await a.waitFor(
      "its shards given up",
      (event) => event.event === "shards" && Number(event["held"]) > 0 && Number(event["held"]) < 16
    )
    const keys = Array.from({ length: 8 }, (_, index) => `split-${index}`)
    const client = await runner("client", "split", { RUNNER_CLIENT_ONLY: "1", RUNNER_EXECUTE: keys.join(",") })
    await a.waitFor("a create", isCreate)
    await b.waitFor("a create", isCreate)
    await a.stop("SIGTERM")
    const results = await Promise.all(keys.map((key) => client.waitFor(`the run of ${key}`, resultOf(key))))
    expect(results.map((event) => runOf(event).status)).toEqual(keys.map(() => "completed"))
    expect(creates - before).toBe(keys.length)
    // runner A stopped before any run could end: runner B polled every run to its end, those A created too
    const polledByB = new Set(b.events.filter(isRetrieve).map((event) => String(event["url"]).split("/").pop()))
    expect(results.map(runOf).filter((run) => !polledByB.has(run.id))).toEqual([])
    const madeAgain = client.events.filter((event) => event.event === "reexecute").length
    console.info(`handoff: ${madeAgain} calls made again; rows ${await rowsIn("split")}`)
  })
})

describe("DurableChat.runTools on Effect Cluster with PostgreSQL", { timeout: 180_000 }, () => {
  it("a runner killed between two tool calls is resumed by another: each side effect once", async () => {
    let completions = 0
    const chatScope = await Effect.runPromise(Scope.make())
    const chatService = await Effect.runPromise(
      Effect.provideService(
        Reference.listen({
          port: 0,
          apiKeys: [key],
          // the first answer calls the weather tool for two cities; the next one answers
          model: () =>
            ++completions === 1
              ? {
                toolCalls: [
                  { name: "get_weather", arguments: { city: "Lisbon" } },
                  { name: "get_weather", arguments: { city: "Porto" } }
                ]
              }
              : "Clear in Lisbon and in Porto."
        }),
        Scope.Scope,
        chatScope
      )
    )
    try {
      const env = { RUNNER_WORKFLOW: "chat", RUNNER_EXECUTE: "tools-1" }
      const first = await runner("runner A", "tools", { ...env, RUNNER_HOLD_CITY: "Porto" }, chatService.url)
      await first.waitFor("Lisbon's side effect", (event) => event.event === "tool" && event["city"] === "Lisbon")
      await first.waitFor("Porto's call", (event) => event.event === "tool-start" && event["city"] === "Porto")
      await first.stop("SIGKILL")
      const killedAt = performance.now()

      const second = await runner("runner B", "tools", env, chatService.url)
      const answers = (await second.waitFor("the loop's end", resultOf("tools-1")))["value"]
      const doneAt = performance.now()
      expect(answers).toEqual(["clear in Lisbon", "clear in Porto"])
      const sideEffects = [...first.events, ...second.events].filter((event) => event.event === "tool")
      expect(sideEffects.map((event) => event["city"]).sort()).toEqual(["Lisbon", "Porto"])
      expect(completions).toBe(2)
      expect(await storedAnywhere("tools", "clear in Lisbon")).toBe(true)
      expect(await storedAnywhere("tools", key)).toBe(false)
      console.info(
        `tool loop resumed after SIGKILL in ${Math.round(doneAt - killedAt)} ms; side effects ${sideEffects.length}; ` +
          `completions ${completions}; rows ${await rowsIn("tools")}`
      )
    } finally {
      await Effect.runPromise(Scope.close(chatScope, Exit.void))
    }
  })
})
