/**
 * A runner of `studio-effect/workflow`'s durable workflows on Effect Cluster, its messages and shards stored in
 * PostgreSQL, as a deployment runs one: the tests spawn it as a process (emitted to JavaScript and run against
 * the built package, see `support/runnable.ts`), kill it and start others on the same database. It writes one
 * JSON line per event to stdout: `ready`, how many shards it holds (when that changes), each request it sends
 * to the service, each tool's side effect, and each workflow's result.
 *
 * It hosts two workflows: `DurableMaestro.Workflow`, and `ToolLoop`, a workflow of its own whose handler runs
 * `DurableChat.runTools` with a weather tool whose side effect is the `tool` event it writes.
 *
 * Environment: `DATABASE_URL`, `STUDIO_BASE_URL`, `STUDIO_API_KEY`, `RUNNER_PORT` (its cluster port),
 * `RUNNER_EXECUTE` (workflow keys to execute, comma-separated, or none to only host workflows),
 * `RUNNER_WORKFLOW` (`maestro`, the default, or `chat`: which workflow the keys execute), `RUNNER_HOLD_CITY`
 * (a city whose weather lookup starts and never ends, so the runner can be killed between two tool calls)
 * and `RUNNER_CLIENT_ONLY` (`1`: send the executions to the other runners, hosting none).
 */
import * as ClusterWorkflowEngine from "@effect/cluster/ClusterWorkflowEngine"
import * as RunnerAddress from "@effect/cluster/RunnerAddress"
import * as ShardId from "@effect/cluster/ShardId"
import * as Sharding from "@effect/cluster/Sharding"
import * as NodeClusterSocket from "@effect/platform-node/NodeClusterSocket"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as HttpClient from "@effect/platform/HttpClient"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Workflow from "@effect/workflow/Workflow"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { StudioClient } from "studio-effect"
import { DurableChat, DurableMaestro } from "studio-effect/workflow"

const env = (name: string): string => process.env[name] ?? ""
const emit = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`)

/** Every request the runner sends to the service, written as an event before it is sent. */
const ObservedHttpClient = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(
    HttpClient.HttpClient,
    HttpClient.tapRequest((request) =>
      Effect.sync(() => emit({ event: "request", method: request.method, url: request.url }))
    )
  )
).pipe(Layer.provide(NodeHttpClient.layerUndici))

const Client = StudioClient.layerConfig({ maxRetries: 0 }).pipe(Layer.orDie, Layer.provide(ObservedHttpClient))

const clientOnly = env("RUNNER_CLIENT_ONLY") === "1"

const shardsPerGroup = 16

/** Writes how many of the shards this runner holds, each time that changes. */
const reportShards = Effect.gen(function*() {
  const sharding = yield* Sharding.Sharding
  const shards = Array.from({ length: shardsPerGroup }, (_, index) => ShardId.make("default", index + 1))
  let held = -1
  yield* Effect.sync(() => {
    const now = shards.filter((shard) => sharding.hasShardId(shard)).length
    if (now !== held) emit({ event: "shards", held: held = now })
  }).pipe(Effect.repeat(Schedule.spaced("100 millis")))
})

const Cluster = NodeClusterSocket.layer({
  storage: "sql",
  clientOnly,
  // the requests' and runs' schemas have unions of plain objects, which the binary serialization cannot tell
  // apart: messages go between runners as JSON, as the SQL storage keeps them
  serialization: "ndjson",
  shardingConfig: {
    runnerAddress: Option.some(RunnerAddress.make("127.0.0.1", Number(env("RUNNER_PORT")))),
    shardsPerGroup,
    shardLockRefreshInterval: "1 second",
    shardLockExpiration: "5 seconds",
    entityMessagePollInterval: "250 millis",
    refreshAssignmentsInterval: "250 millis",
    runnerHealthCheckInterval: "500 millis"
  }
}).pipe(Layer.provide(PgClient.layer({ url: Redacted.make(env("DATABASE_URL")) })), Layer.orDie)

const Engine = ClusterWorkflowEngine.layer.pipe(Layer.provideMerge(Cluster))

/** A workflow running one durable tool loop: its success the conversation's tool answers. */
const ToolLoop = Workflow.make({
  name: "test.cluster.toolLoop",
  payload: { key: Schema.String },
  success: Schema.Array(Schema.String),
  error: Schema.String,
  idempotencyKey: ({ key }) => key
})

const held = env("RUNNER_HOLD_CITY")

const weather = (args: unknown) => {
  const city = String((args as { readonly city?: unknown }).city)
  const lookUp = Effect.sync(() => {
    emit({ event: "tool", city })
    return `clear in ${city}`
  })
  return city === held
    ? Effect.sync(() => emit({ event: "tool-start", city })).pipe(Effect.andThen(Effect.never))
    : lookUp
}

const ToolLoopLive = ToolLoop.toLayer(() =>
  DurableChat.runTools(
    {
      model: "fpmodel-mini",
      messages: [{ role: "user", content: "What is the weather in Lisbon and in Porto?" }],
      tools: [{
        type: "function",
        function: {
          name: "get_weather",
          description: "The current weather in a city",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
        }
      }]
    },
    { get_weather: weather },
    { concurrency: 1 }
  ).pipe(
    Effect.map((result) =>
      result.messages.flatMap((message) => message.role === "tool" ? [String(message.content)] : [])
    ),
    Effect.mapError((error) => error._tag)
  )
)

const Workflows = Layer.mergeAll(
  DurableMaestro.layerWith({ initialDelay: "200 millis", maxDelay: "200 millis" }),
  ToolLoopLive
).pipe(Layer.provide(Client))

const request = { input: "Plan a lighthouse visit", budget: "high" as const }

/**
 * Writes an execution's result or failure. A call whose runner stops under it (the client's call ends
 * interrupted, while the workflow goes on under the shard's next owner) is made again under the same key,
 * which returns that workflow's result: each time is a `reexecute` event.
 */
const report = <A, R>(key: string, execution: Effect.Effect<A, { readonly _tag: string } | string, R>) =>
  execution.pipe(
    Effect.sandbox,
    Effect.tapError((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.sync(() => emit({ event: "reexecute", key })) : Effect.void
    ),
    Effect.retry({ while: Cause.isInterruptedOnly, schedule: Schedule.spaced("250 millis"), times: 20 }),
    Effect.unsandbox,
    Effect.matchEffect({
      onFailure: (error) =>
        Effect.sync(() => emit({ event: "failure", key, error: typeof error === "string" ? error : error._tag })),
      onSuccess: (value) => Effect.sync(() => emit({ event: "result", key, value }))
    })
  )

const execute = (key: string) =>
  env("RUNNER_WORKFLOW") === "chat"
    ? report(key, ToolLoop.execute({ key }))
    : report(key, DurableMaestro.Workflow.execute({ key, request }))

const keys = env("RUNNER_EXECUTE").split(",").filter((key) => key !== "")

const main = Effect.gen(function*() {
  emit({ event: "ready" })
  if (!clientOnly) yield* Effect.forkDaemon(reportShards)
  yield* Effect.forEach(keys, execute, { concurrency: "unbounded", discard: true })
  if (keys.length > 0) return
  yield* Effect.never
})

const layer = clientOnly ? Engine : Workflows.pipe(Layer.provideMerge(Engine))

NodeRuntime.runMain(main.pipe(Effect.provide(layer)))
