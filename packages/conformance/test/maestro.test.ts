import {
  assert,
  Clock,
  collect,
  describe,
  Duration,
  Effect,
  Exit,
  Fiber,
  fork,
  hasInterrupt,
  HttpClient,
  type HttpClientRequest,
  isDone,
  it,
  jsonResponse,
  Layer,
  Redacted,
  Schedule,
  scheduleBoth,
  Stream,
  tapInput,
  TestClock
} from "@studio-effect/line"
import { Maestro, type MaestroSchema, StudioClient } from "studio-effect"
import { clientOf, testKey, testServer, untilRequests } from "./support/testServer.js"

// ---------------------------------------------------------------------------------------------------------
// an in-memory service: every request answered by a script, stamped with the (test) clock's time
// ---------------------------------------------------------------------------------------------------------

interface Seen {
  readonly method: string
  readonly url: string
  readonly body: string
  readonly at: number
}

interface Answer {
  readonly status?: number
  readonly json: unknown
}

const bodyText = (request: HttpClientRequest.HttpClientRequest): string =>
  request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""

const memoryService = (script: (seen: Seen, index: number) => Answer) => {
  const seen: Array<Seen> = []
  const transport = HttpClient.make((request, url) =>
    Effect.map(Clock.currentTimeMillis, (at) => {
      const entry: Seen = { method: request.method, url: url.pathname + url.search, body: bodyText(request), at }
      seen.push(entry)
      const answer = script(entry, seen.length - 1)
      // a response whose body is there at once, so that nothing waits on a promise the TestClock cannot see
      return jsonResponse(request, answer.status ?? 200, answer.json)
    })
  )
  const layer = StudioClient.layer({ apiKey: Redacted.make("test-key"), baseUrl: "https://studio.test" }).pipe(
    Layer.provide(Layer.succeed(HttpClient.HttpClient, transport)),
    Layer.orDie
  )
  return { seen, layer }
}

/** A run that answers `in_progress` to the first `pending` retrieves, then `final`. */
const progressing = (pending: number, final: Record<string, unknown>) => (seen: Seen, index: number): Answer =>
  seen.method === "POST"
    ? { json: { id: "run-1", status: "in_progress", result: null } }
    : index < pending
    ? { json: { id: "run-1", status: "in_progress", result: null } }
    : { json: { id: "run-1", ...final } }

const times = (seen: ReadonlyArray<Seen>) => seen.map((entry) => entry.at)

const runJson = (status: string, extra: Record<string, unknown> = {}) => ({
  id: "run-1",
  status,
  result: null,
  ...extra
})

// ---------------------------------------------------------------------------------------------------------
// create and retrieve over a socket
// ---------------------------------------------------------------------------------------------------------

describe("Maestro.create", () => {
  it.effect("sends every field of the run request exactly as the service expects", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: runJson("in_progress") }))
      const request: MaestroSchema.RunRequest = {
        input: [{ role: "user", content: "Plan a trip" }, { role: "assistant", content: "Where to?" }, {
          role: "user",
          content: "Lisbon"
        }],
        system_prompt: "You are a travel agent.",
        requirements: [
          { name: "length", description: "At most 100 words", is_mandatory: true },
          { name: "tone", description: "Friendly" }
        ],
        tools: [
          {
            type: "mcp",
            server_label: "maps",
            server_url: "https://mcp.example.com/sse",
            headers: { Authorization: "Bearer x" },
            allowed_tools: ["route"]
          },
          {
            type: "http",
            function: { name: "weather", description: "Weather", parameters: { type: "object" } },
            endpoint: { url: "https://api.example.com/weather", headers: { "X-Key": "k" } }
          },
          { type: "file_search", labels: ["travel"], file_ids: ["f1"] },
          { type: "web_search", urls: ["https://example.com", "example.org", "example.net/guides", "docs.example.io"] }
        ],
        models: ["fpmodel-large"],
        budget: "medium",
        include: ["data_sources", "requirements_result"],
        response_language: "english"
      }
      const run = yield* Maestro.create(request).pipe(Effect.provide(clientOf(server.url)))
      assert.strictEqual(run.id, "run-1")
      assert.strictEqual(run.status, "in_progress")
      assert.strictEqual(server.requests.length, 1)
      const sent = server.requests[0]!
      assert.strictEqual(sent.method, "POST")
      assert.strictEqual(sent.url, "/studio/v1/maestro/runs")
      assert.strictEqual(sent.headers.authorization, `Bearer ${testKey}`)
      assert.strictEqual(sent.headers["content-type"], "application/json")
      assert.strictEqual(
        sent.body,
        "{\"input\":[{\"role\":\"user\",\"content\":\"Plan a trip\"},{\"role\":\"assistant\",\"content\":\"Where to?\"},"
          + "{\"role\":\"user\",\"content\":\"Lisbon\"}],\"system_prompt\":\"You are a travel agent.\","
          + "\"requirements\":[{\"name\":\"length\",\"description\":\"At most 100 words\",\"is_mandatory\":true},"
          + "{\"name\":\"tone\",\"description\":\"Friendly\"}],"
          + "\"tools\":[{\"type\":\"mcp\",\"server_label\":\"maps\",\"server_url\":\"https://mcp.example.com/sse\","
          + "\"headers\":{\"Authorization\":\"Bearer x\"},\"allowed_tools\":[\"route\"]},"
          + "{\"type\":\"http\",\"function\":{\"name\":\"weather\",\"description\":\"Weather\","
          + "\"parameters\":{\"type\":\"object\"}},"
          + "\"endpoint\":{\"url\":\"https://api.example.com/weather\",\"headers\":{\"X-Key\":\"k\"}}},"
          + "{\"type\":\"file_search\",\"labels\":[\"travel\"],\"file_ids\":[\"f1\"]},"
          + "{\"type\":\"web_search\",\"urls\":[\"https://example.com\",\"example.org\",\"example.net/guides\","
          + "\"docs.example.io\"]}],"
          + "\"models\":[\"fpmodel-large\"],\"budget\":\"medium\",\"response_language\":\"english\","
          + "\"include\":[\"data_sources\",\"requirements_result\"]}"
      )
    }))

  it.effect("sends a string input and the legacy tool_resources body; an explicit null is left out", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: runJson("in_progress") }))
      yield* Maestro.create({
        input: "Summarise the files",
        tool_resources: {
          file_search: { labels: ["q3"], file_ids: ["a", "b"] },
          web_search: { urls: ["example.com"] }
        },
        response_language: null
      }).pipe(Effect.provide(clientOf(server.url)))
      assert.strictEqual(
        server.requests[0]!.body,
        "{\"input\":\"Summarise the files\","
          + "\"tool_resources\":{\"file_search\":{\"labels\":[\"q3\"],\"file_ids\":[\"a\",\"b\"]},"
          + "\"web_search\":{\"urls\":[\"example.com\"]}}}"
      )
    }))

  it.effect("keeps fields the schema does not know, so newer service fields can be sent", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: runJson("in_progress") }))
      yield* Maestro.create({ verbose: true, input: "x" } as MaestroSchema.RunRequest).pipe(
        Effect.provide(clientOf(server.url))
      )
      // known fields in schema order, then the others
      assert.deepStrictEqual(JSON.parse(server.requests[0]!.body), { input: "x", verbose: true })
    }))

  it.effect("checks the request first: every broken rule with its path, and nothing is sent", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: runJson("in_progress") }))
      const error = yield* Maestro.create({
        input: [{ role: "user", content: "a" }, { role: "user", content: "b" }],
        requirements: Array.from({ length: 11 }, (_, i) => ({ name: `r${i}`, description: "short" })),
        tools: [
          { type: "mcp", server_label: "s", server_url: "not a url" },
          { type: "web_search", urls: ["ftp://nope"] }
        ],
        models: ["fpmodel-large", "fpmodel-mini"],
        budget: "extreme" as "low",
        include: ["everything" as "data_sources"],
        response_language: "klingon" as "english"
      }).pipe(Effect.provide(clientOf(server.url)), Effect.flip)
      assert.strictEqual(error._tag, "ValidationError")
      if (error._tag !== "ValidationError") return
      assert.strictEqual(error.source, "client")
      assert.strictEqual(error.operation, "maestro.create")
      const paths = error.issues.map((issue) => issue.path)
      for (
        const expected of [
          "input[1].role",
          "requirements",
          "tools[0].server_url",
          "tools[1].urls[0]",
          "models",
          "budget",
          "include[0]",
          "response_language"
        ]
      ) {
        assert.isTrue(paths.some((path) => path.startsWith(expected)), `${expected} in ${paths.join(", ")}`)
      }
      assert.strictEqual(server.requests.length, 0)
    }))

  it.effect("rejects a requirement description over 128 words", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: runJson("in_progress") }))
      const error = yield* Maestro.create({
        input: "x",
        requirements: [{ name: "long", description: "word ".repeat(129) }]
      }).pipe(Effect.provide(clientOf(server.url)), Effect.flip)
      assert.strictEqual(error._tag, "ValidationError")
      if (error._tag === "ValidationError") assert.strictEqual(error.issues[0]!.path, "requirements[0].description")
      assert.strictEqual(server.requests.length, 0)
    }))
})

describe("Maestro.retrieve", () => {
  it.effect("gets the run by its URL-encoded id and decodes every field", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({
        json: runJson("completed", {
          result: "done",
          requirements_result: {
            score: 0.9,
            finish_reason: "fulfilled",
            requirements: [{ name: "tone", description: "Friendly", is_mandatory: false, score: 0.9, reason: "ok" }]
          },
          data_sources: { web_search: [{ url: "https://example.com" }] }
        })
      }))
      const run = yield* Maestro.retrieve("run/1 ?#%").pipe(Effect.provide(clientOf(server.url)))
      assert.strictEqual(server.requests[0]!.method, "GET")
      assert.strictEqual(server.requests[0]!.url, "/studio/v1/maestro/runs/run%2F1%20%3F%23%25")
      assert.strictEqual(server.requests[0]!.body, "")
      assert.strictEqual(run.result, "done")
      assert.strictEqual(run.requirements_result?.requirements[0]?.score, 0.9)
      assert.strictEqual(run.data_sources?.web_search?.[0]?.url, "https://example.com")
    }))

  it.effect("fails with NotFound for an unknown id", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ status: 404, json: { detail: "Run not found" } }))
      const error = yield* Maestro.retrieve("missing").pipe(Effect.provide(clientOf(server.url)), Effect.flip)
      assert.strictEqual(error._tag, "NotFound")
      assert.strictEqual(server.requests.length, 1)
    }))

  it.effect("refuses an empty id, . and .., which would address another resource", () =>
    Effect.gen(function*() {
      const service = memoryService(() => ({ json: runJson("completed") }))
      for (const id of ["", ".", ".."]) {
        const error = yield* Maestro.retrieve(id).pipe(Effect.provide(service.layer), Effect.flip)
        assert.strictEqual(error._tag, "ValidationError")
      }
      assert.strictEqual(service.seen.length, 0)
    }))
})

// ---------------------------------------------------------------------------------------------------------
// polling, under the test clock
// ---------------------------------------------------------------------------------------------------------

describe("Maestro.poll", () => {
  it.effect("retrieves at once, then at each delay of the given schedule, until completed", () =>
    Effect.gen(function*() {
      const service = memoryService(progressing(3, { status: "completed", result: "ok" }))
      const fiber = yield* Maestro.poll("run-1", { schedule: Schedule.spaced("2 seconds") }).pipe(
        Effect.provide(service.layer),
        fork
      )
      yield* TestClock.adjust("1 minute")
      const run = yield* Fiber.join(fiber)
      assert.strictEqual(run.status, "completed")
      assert.strictEqual(run.result, "ok")
      assert.deepStrictEqual(times(service.seen), [0, 2000, 4000, 6000])
      assert.isTrue(service.seen.every((seen) => seen.method === "GET" && seen.url === "/studio/v1/maestro/runs/run-1"))
    }))

  it.effect("the first retrieve is made at once, before the clock moves", () =>
    Effect.gen(function*() {
      const service = memoryService(() => ({ json: runJson("completed") }))
      const run = yield* Maestro.poll("run-1").pipe(Effect.provide(service.layer))
      assert.strictEqual(run.status, "completed")
      assert.deepStrictEqual(times(service.seen), [0])
    }))

  it.effect("by default waits 1 s, growing by 1.5, jittered, never more than 10 s", () =>
    Effect.gen(function*() {
      const service = memoryService(progressing(40, { status: "completed" }))
      const fiber = yield* Maestro.poll("run-1").pipe(Effect.provide(service.layer), fork)
      yield* TestClock.adjust("9 minutes")
      yield* Fiber.join(fiber)
      const at = times(service.seen)
      assert.strictEqual(at.length, 41)
      assert.strictEqual(at[0], 0)
      // times are sums of jittered (fractional) delays: allow for floating-point rounding
      const epsilon = 0.001
      const gaps = at.slice(1).map((time, i) => time - at[i]!)
      gaps.forEach((gap, i) => {
        const base = Math.min(1000 * 1.5 ** i, 10_000)
        assert.isAtLeast(gap, base * 0.8 - epsilon, `gap ${i}`)
        assert.isAtMost(gap, Math.min(base * 1.2, 10_000) + epsilon, `gap ${i}`)
      })
      assert.isTrue(gaps.slice(10).every((gap) => gap >= 8000 - epsilon && gap <= 10_000 + epsilon))
    }))

  it.effect("a requires_action run is returned", () =>
    Effect.gen(function*() {
      const service = memoryService(progressing(1, { status: "requires_action" }))
      const fiber = yield* Maestro.poll("run-1", { schedule: Schedule.spaced("1 second") }).pipe(
        Effect.provide(service.layer),
        fork
      )
      yield* TestClock.adjust("5 seconds")
      const run = yield* Fiber.join(fiber)
      assert.strictEqual(run.status, "requires_action")
      assert.strictEqual(service.seen.length, 2)
    }))

  it.effect("a status it does not know is not terminal: polling goes on", () =>
    Effect.gen(function*() {
      const service = memoryService((_, index) => ({
        json: runJson(index < 2 ? "queued" : "completed")
      }))
      const fiber = yield* Maestro.poll("run-1", { schedule: Schedule.spaced("1 second") }).pipe(
        Effect.provide(service.layer),
        fork
      )
      yield* TestClock.adjust("5 seconds")
      assert.strictEqual((yield* Fiber.join(fiber)).status, "completed")
      assert.strictEqual(service.seen.length, 3)
    }))

  it.effect("a failed run becomes RunFailed with the run and its error message", () =>
    Effect.gen(function*() {
      const service = memoryService(progressing(2, { status: "failed", error: { message: "budget exhausted" } }))
      const fiber = yield* Maestro.poll("run-1", { schedule: Schedule.spaced("1 second") }).pipe(
        Effect.provide(service.layer),
        Effect.flip,
        fork
      )
      yield* TestClock.adjust("10 seconds")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "RunFailed")
      if (error._tag !== "RunFailed") return
      assert.strictEqual(error.reason, "budget exhausted")
      assert.strictEqual(error.run.id, "run-1")
      assert.strictEqual(error.run.status, "failed")
      assert.strictEqual(service.seen.length, 3)
      assert.include(error.message, "budget exhausted")
    }))

  it.effect("passing the deadline becomes PollTimeout with the last snapshot", () =>
    Effect.gen(function*() {
      const service = memoryService((_, index) => ({ json: runJson("in_progress", { result: `step ${index}` }) }))
      const fiber = yield* Maestro.poll("run-1", { schedule: Schedule.spaced("7 seconds"), deadline: "30 seconds" })
        .pipe(
          Effect.provide(service.layer),
          Effect.flip,
          fork
        )
      yield* TestClock.adjust("29 seconds")
      assert.isFalse(isDone(fiber))
      yield* TestClock.adjust("1 second")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "PollTimeout")
      if (error._tag !== "PollTimeout") return
      assert.strictEqual(error.runId, "run-1")
      assert.strictEqual(error.lastRun?.result, "step 4")
      assert.deepStrictEqual(times(service.seen), [0, 7000, 14_000, 21_000, 28_000])
      yield* TestClock.adjust("1 minute")
      assert.strictEqual(service.seen.length, 5)
    }))

  it.effect("the default deadline is 10 minutes", () =>
    Effect.gen(function*() {
      const service = memoryService(() => ({ json: runJson("in_progress") }))
      const fiber = yield* Maestro.poll("run-1").pipe(Effect.provide(service.layer), Effect.flip, fork)
      yield* TestClock.adjust(Duration.subtract(Maestro.defaultPollDeadline, Duration.millis(1)))
      assert.isFalse(isDone(fiber))
      yield* TestClock.adjust("1 millis")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "PollTimeout")
      if (error._tag === "PollTimeout") assert.strictEqual(error.lastRun?.status, "in_progress")
    }))

  it.effect("a schedule that ends before a terminal status becomes PollTimeout", () =>
    Effect.gen(function*() {
      const service = memoryService(() => ({ json: runJson("in_progress") }))
      const fiber = yield* Maestro.poll("run-1", {
        schedule: scheduleBoth(Schedule.spaced("1 second"), Schedule.recurs(2))
      }).pipe(Effect.provide(service.layer), Effect.flip, fork)
      yield* TestClock.adjust("10 seconds")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "PollTimeout")
      assert.deepStrictEqual(times(service.seen), [0, 1000, 2000])
    }))

  it.effect("the schedule sees each snapshot as its input", () =>
    Effect.gen(function*() {
      const service = memoryService(progressing(3, { status: "completed" }))
      const inputs: Array<string> = []
      const schedule = Schedule.spaced("1 second").pipe(
        tapInput((run: MaestroSchema.MaestroRun) => Effect.sync(() => inputs.push(run.status)))
      )
      const fiber = yield* Maestro.poll("run-1", { schedule }).pipe(Effect.provide(service.layer), fork)
      yield* TestClock.adjust("10 seconds")
      yield* Fiber.join(fiber)
      assert.deepStrictEqual(inputs, ["in_progress", "in_progress", "in_progress"])
    }))

  it.effect("a failed retrieve is retried by the client's retry policy, not by the poll loop", () =>
    Effect.gen(function*() {
      const service = memoryService((_, index) =>
        index === 1
          ? { status: 503, json: { detail: "busy" } }
          : { json: runJson(index < 3 ? "in_progress" : "completed") }
      )
      const fiber = yield* Maestro.poll("run-1", { schedule: Schedule.spaced("5 seconds") }).pipe(
        Effect.provide(service.layer),
        fork
      )
      yield* TestClock.adjust("1 minute")
      assert.strictEqual((yield* Fiber.join(fiber)).status, "completed")
      const at = times(service.seen)
      assert.strictEqual(at.length, 4)
      assert.strictEqual(at[1], 5000)
      // the retry follows the client's backoff (about 0.5 s), not the 5 s poll interval
      assert.isAtMost(at[2]! - at[1]!, 1000)
      assert.closeTo(at[3]! - at[2]!, 5000, 0.001)
    }))

  it.effect("an error the client does not retry ends polling with that error", () =>
    Effect.gen(function*() {
      const service = memoryService((_, index) =>
        index === 0 ? { json: runJson("in_progress") } : { status: 404, json: { detail: "Run not found" } }
      )
      const fiber = yield* Maestro.poll("run-1", { schedule: Schedule.spaced("1 second") }).pipe(
        Effect.provide(service.layer),
        Effect.flip,
        fork
      )
      yield* TestClock.adjust("1 minute")
      assert.strictEqual((yield* Fiber.join(fiber))._tag, "NotFound")
      assert.strictEqual(service.seen.length, 2)
    }))

  it.effect("interrupting a poll stops it at once", () =>
    Effect.gen(function*() {
      const service = memoryService(() => ({ json: runJson("in_progress") }))
      const fiber = yield* Maestro.poll("run-1", { schedule: Schedule.spaced("1 second") }).pipe(
        Effect.provide(service.layer),
        fork
      )
      yield* TestClock.adjust("2500 millis")
      assert.strictEqual(service.seen.length, 3)
      yield* Fiber.interrupt(fiber)
      const exit = yield* Fiber.await(fiber)
      assert.isTrue(Exit.isFailure(exit) && hasInterrupt(exit.cause))
      yield* TestClock.adjust("1 hour")
      assert.strictEqual(service.seen.length, 3)
    }))

  it.effect("interrupting aborts a retrieve in flight over a socket", () =>
    Effect.gen(function*() {
      // headers sent, body never finished: the retrieve hangs until it is interrupted
      const server = yield* testServer(() => ({ status: 200, chunks: ["{\"id\":"], end: false }))
      const fiber = yield* Maestro.poll("run-1").pipe(Effect.provide(clientOf(server.url)), fork)
      yield* untilRequests(server, 1)
      yield* Fiber.interrupt(fiber)
      const exit = yield* Fiber.await(fiber)
      assert.isTrue(Exit.isFailure(exit) && hasInterrupt(exit.cause))
      yield* Effect.promise(async () => {
        for (let turn = 0; turn < 100_000 && server.closedSockets() === 0; turn++) {
          await new Promise<void>((resolve) => setImmediate(resolve))
        }
      })
      assert.strictEqual(server.closedSockets(), 1)
      assert.strictEqual(server.requests.length, 1)
    }))

  it.effect("polls over a socket until completed, with the test clock driving the delays", () =>
    Effect.gen(function*() {
      const server = yield* testServer((_, index) => ({
        json: runJson(index < 2 ? "in_progress" : "completed", { result: index < 2 ? null : "final" })
      }))
      const fiber = yield* Maestro.poll("run-1", { schedule: Schedule.spaced("3 seconds") }).pipe(
        Effect.provide(clientOf(server.url)),
        fork
      )
      for (let expected = 1; expected <= 3; expected++) {
        assert.strictEqual(yield* untilRequests(server, expected), expected)
        // the delay has not passed: no new request
        yield* TestClock.adjust("2999 millis")
        assert.strictEqual(server.requests.length, expected)
        yield* TestClock.adjust("1 millis")
      }
      const run = yield* Fiber.join(fiber)
      assert.strictEqual(run.result, "final")
      assert.strictEqual(server.requests.length, 3)
      assert.isTrue(server.requests.every((request) => request.url === "/studio/v1/maestro/runs/run-1"))
    }))
})

describe("Maestro.watch", () => {
  it.effect("emits each snapshot and ends after the terminal one", () =>
    Effect.gen(function*() {
      const service = memoryService(progressing(2, { status: "completed", result: "done" }))
      const fiber = yield* Maestro.watch("run-1", { schedule: Schedule.spaced("1 second") }).pipe(
        collect,
        Effect.provide(service.layer),
        fork
      )
      yield* TestClock.adjust("10 seconds")
      const snapshots = yield* Fiber.join(fiber)
      assert.deepStrictEqual(snapshots.map((run) => run.status), ["in_progress", "in_progress", "completed"])
      assert.strictEqual(snapshots[2]!.result, "done")
      assert.strictEqual(service.seen.length, 3)
    }))

  it.effect("a failed run is emitted, then the stream fails with RunFailed", () =>
    Effect.gen(function*() {
      const service = memoryService(progressing(1, { status: "failed", error: { message: "tool error" } }))
      const statuses: Array<string> = []
      const fiber = yield* Maestro.watch("run-1", { schedule: Schedule.spaced("1 second") }).pipe(
        Stream.runForEach((run) => Effect.sync(() => statuses.push(run.status))),
        Effect.provide(service.layer),
        Effect.flip,
        fork
      )
      yield* TestClock.adjust("10 seconds")
      const error = yield* Fiber.join(fiber)
      assert.deepStrictEqual(statuses, ["in_progress", "failed"])
      assert.strictEqual(error._tag, "RunFailed")
      if (error._tag === "RunFailed") assert.strictEqual(error.reason, "tool error")
    }))

  it.effect("given a snapshot, starts from it: the first retrieve after the first delay", () =>
    Effect.gen(function*() {
      const service = memoryService(progressing(1, { status: "completed" }))
      const start = yield* Maestro.retrieve("run-1").pipe(Effect.provide(service.layer))
      const fiber = yield* Maestro.watch(start, { schedule: Schedule.spaced("4 seconds") }).pipe(
        collect,
        Effect.provide(service.layer),
        fork
      )
      yield* TestClock.adjust("10 seconds")
      const snapshots = yield* Fiber.join(fiber)
      assert.deepStrictEqual(snapshots.map((run) => run.status), ["in_progress", "completed"])
      assert.deepStrictEqual(times(service.seen), [0, 4000])
    }))
})

describe("Maestro.createAndPoll", () => {
  it.effect("creates the run, then retrieves it after each delay until completed", () =>
    Effect.gen(function*() {
      const service = memoryService(progressing(3, { status: "completed", result: "haiku" }))
      const fiber = yield* Maestro.createAndPoll(
        { input: "Write a haiku", budget: "low" },
        { schedule: Schedule.spaced("2 seconds") }
      ).pipe(Effect.provide(service.layer), fork)
      yield* TestClock.adjust("1 minute")
      const run = yield* Fiber.join(fiber)
      assert.strictEqual(run.result, "haiku")
      assert.deepStrictEqual(service.seen.map((seen) => `${seen.method} ${seen.url} @${seen.at}`), [
        "POST /studio/v1/maestro/runs @0",
        "GET /studio/v1/maestro/runs/run-1 @2000",
        "GET /studio/v1/maestro/runs/run-1 @4000",
        "GET /studio/v1/maestro/runs/run-1 @6000"
      ])
      assert.strictEqual(service.seen[0]!.body, "{\"input\":\"Write a haiku\",\"budget\":\"low\"}")
    }))

  it.effect("a run created already terminal is returned without a retrieve", () =>
    Effect.gen(function*() {
      const service = memoryService(() => ({ json: runJson("completed", { result: "fast" }) }))
      const run = yield* Maestro.createAndPoll({ input: "x" }).pipe(Effect.provide(service.layer))
      assert.strictEqual(run.result, "fast")
      assert.strictEqual(service.seen.length, 1)
    }))

  it.effect("a run created already failed fails with RunFailed", () =>
    Effect.gen(function*() {
      const service = memoryService(() => ({ json: runJson("failed", { error: { message: "bad tool" } }) }))
      const error = yield* Maestro.createAndPoll({ input: "x" }).pipe(Effect.provide(service.layer), Effect.flip)
      assert.strictEqual(error._tag, "RunFailed")
      assert.strictEqual(service.seen.length, 1)
    }))

  it.effect("an invalid request fails before anything is sent", () =>
    Effect.gen(function*() {
      const service = memoryService(() => ({ json: runJson("completed") }))
      const error = yield* Maestro.createAndPoll({ input: 42 as unknown as string }).pipe(
        Effect.provide(service.layer),
        Effect.flip
      )
      assert.strictEqual(error._tag, "ValidationError")
      assert.strictEqual(service.seen.length, 0)
    }))
})
