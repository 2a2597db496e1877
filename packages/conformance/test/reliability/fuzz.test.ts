/**
 * Fuzzing: random bytes and random event sequences into the SSE decoder, random answers (JSON or not, any
 * status, any `Retry-After`) into every operation's response decoding, random request objects into every
 * validator. The property each time: a typed result or a typed `StudioError`, never a defect or a throw.
 */
import {
  Cause,
  collect,
  decodeEvents,
  describe,
  Effect,
  Exit,
  expect,
  hasDie,
  hasInterrupt,
  HttpClient,
  HttpClientResponse,
  it,
  Layer,
  Redacted,
  Schema,
  Stream
} from "@studio-effect/line"
import fc from "fast-check"
import { Assistants, Chat, Maestro, StudioClient, StudioError } from "studio-effect"
import { SseParser } from "studio-effect-core/sse/SseParser"
import { splitAt } from "../../../core/test/support/bytes.js"
import { failuresOf } from "./harness.js"

const isStudioError = Schema.is(StudioError.StudioError)

/** A typed success, or a failure made only of `StudioError`s: no defect, no interruption. */
const isTyped = (exit: Exit.Exit<unknown, unknown>): boolean =>
  Exit.isSuccess(exit) || (
    !hasDie(exit.cause) && !hasInterrupt(exit.cause) &&
    [...failuresOf(exit.cause)].length > 0 &&
    [...failuresOf(exit.cause)].every(isStudioError)
  )

const explain = (exit: Exit.Exit<unknown, unknown>) => Exit.isFailure(exit) ? Cause.pretty(exit.cause) : "success"

/** fast-check's default number of runs, stated so the count is visible. */
const runs = { numRuns: 100 }

// -- SSE ------------------------------------------------------------------------------------------------

const lineText = fc.string({ unit: fc.oneof(fc.char(), fc.constantFrom("é", "€", "😀", "\u0000")) }).map((text) =>
  text.replace(/[\r\n]/g, "")
)

interface EventSpec {
  readonly data: ReadonlyArray<{ readonly value: string; readonly space: boolean }>
  readonly extras: ReadonlyArray<string>
}

const eventSpec: fc.Arbitrary<EventSpec> = fc.record({
  data: fc.array(fc.record({ value: lineText, space: fc.boolean() }), { maxLength: 3 }),
  extras: fc.array(
    fc.oneof(
      lineText.map((text) => `:${text}`),
      lineText.map((text) => `event: ${text}`),
      lineText.map((text) => `id: ${text}`),
      fc.constant("retry: 1000")
    ),
    { maxLength: 2 }
  )
})

/** The `data` an event gives: its data lines joined by LF, a leading space after `data:` removed once. */
const expectedData = (event: EventSpec): string | undefined =>
  event.data.length === 0 ? undefined : event.data
    .map(({ space, value }) => space ? value : value.startsWith(" ") ? value.slice(1) : value)
    .join("\n")

const serialize = (events: ReadonlyArray<EventSpec>, newline: string): string =>
  events.map((event) =>
    [...event.extras, ...event.data.map(({ space, value }) => `data:${space ? " " : ""}${value}`)]
      .map((line) => `${line}${newline}`).join("") + newline
  ).join("")

describe("fuzzing the SSE decoder", () => {
  it("random bytes in random reads: the parser returns strings and never throws", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.array(fc.nat(), { maxLength: 8 }), (bytes, cuts) => {
        const parser = new SseParser()
        const out = [...splitAt(bytes, cuts).flatMap((part) => parser.push(part)), ...parser.end()]
        return out.every((data) => typeof data === "string")
      }),
      runs
    )
  })

  it("random bytes through the stream decoder: events, then [DONE] or a TransportError, never a defect", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 512 }),
          fc.string().map((text) => new TextEncoder().encode(`data: ${text}\n\ndata: [DONE]\n\n`))
        ),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (bytes, cuts) => {
          const exit = await Effect.runPromiseExit(
            collect(
              decodeEvents("POST", "/x", (data: string) => data)(Stream.fromIterable(splitAt(bytes, cuts)))
            )
          )
          if (Exit.isSuccess(exit)) return exit.value.every((data) => typeof data === "string")
          return isTyped(exit)
        }
      ),
      runs
    )
  })

  it("random event sequences, any line ending, any reads: exactly the events' data, in order", () => {
    fc.assert(
      fc.property(
        fc.array(eventSpec, { maxLength: 8 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.array(fc.nat(), { maxLength: 10 }),
        (events, newline, cuts) => {
          const bytes = new TextEncoder().encode(serialize(events, newline))
          const parser = new SseParser()
          const out = [...splitAt(bytes, cuts).flatMap((part) => parser.push(part)), ...parser.end()]
          const expected = events.map(expectedData).filter((data): data is string => data !== undefined)
          expect(out).toEqual(expected)
        }
      ),
      runs
    )
  })
})

// -- response decoders ----------------------------------------------------------------------------------

/** A client whose transport answers every request with `answer`, without a socket. */
const answering = (
  answer: { readonly status: number; readonly body: string; readonly headers: Record<string, string> }
) =>
  StudioClient.layer({ apiKey: Redacted.make("sk-fuzz"), baseUrl: "http://localhost", maxRetries: 0 }).pipe(
    Layer.provide(Layer.succeed(
      HttpClient.HttpClient,
      HttpClient.make((request) =>
        Effect.sync(() =>
          HttpClientResponse.fromWeb(
            request,
            new Response(answer.body, { status: answer.status, headers: answer.headers })
          )
        )
      )
    )),
    Layer.orDie
  )

const chatRequest = { model: "fpmodel-mini", messages: [{ role: "user" as const, content: "Hi" }] }

/** Every operation that decodes an answer. */
const operations: ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown, StudioClient.StudioClient>]> = [
  ["Chat.create", Chat.create(chatRequest)],
  ["Chat.stream", Stream.runDrain(Chat.stream(chatRequest))],
  ["Chat.accumulate", Chat.accumulate(Chat.stream(chatRequest))],
  ["Maestro.create", Maestro.create({ input: "Hi" })],
  ["Maestro.retrieve", Maestro.retrieve("run-1")],
  ["Maestro.poll (one step)", Maestro.poll("run-1", { deadline: "1 millis" })],
  ["Assistants.run", Assistants.run("asst-1", { input: [{ role: "user", content: "Hi" }] })],
  ["Assistants.create", Assistants.create({ name: "a" })],
  ["Assistants.retrieve", Assistants.retrieve("asst-1")],
  ["Assistants.list", Assistants.list()],
  ["Assistants.update", Assistants.update("asst-1", { name: "b" })],
  ["Assistants.delete", Assistants.delete("asst-1")]
]

/** Plausible answers: any JSON, JSON shaped like the real answers with random values, or any text. */
const jsonBody = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.record({
    id: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    object: fc.oneof(fc.constant("assistant"), fc.string()),
    status: fc.oneof(fc.constantFrom("in_progress", "completed", "failed", "requires_action"), fc.jsonValue()),
    result: fc.jsonValue(),
    error: fc.oneof(fc.record({ message: fc.jsonValue() }), fc.jsonValue()),
    choices: fc.oneof(
      fc.array(fc.record({
        index: fc.oneof(fc.nat(), fc.jsonValue()),
        message: fc.jsonValue(),
        delta: fc.oneof(fc.record({ content: fc.jsonValue(), tool_calls: fc.jsonValue() }), fc.jsonValue()),
        finish_reason: fc.jsonValue()
      }, { requiredKeys: [] })),
      fc.jsonValue()
    ),
    usage: fc.jsonValue(),
    results: fc.jsonValue(),
    name: fc.jsonValue(),
    created_at: fc.jsonValue(),
    detail: fc.jsonValue()
  }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
  fc.string()
)

const sseBody = fc.array(jsonBody, { maxLength: 4 }).chain((events) =>
  fc.boolean().map((done) => events.map((event) => `data: ${event}\n\n`).join("") + (done ? "data: [DONE]\n\n" : ""))
)

const answer = fc.record({
  status: fc.constantFrom(200, 200, 200, 200, 400, 401, 403, 404, 408, 409, 418, 422, 429, 500, 503),
  body: fc.oneof(jsonBody, sseBody),
  headers: fc.record({
    "content-type": fc.constantFrom("application/json", "text/event-stream", "text/plain"),
    "retry-after": fc.oneof(fc.string(), fc.integer().map(String), fc.date().map((d) => d.toUTCString())),
    "retry-after-ms": fc.oneof(fc.string(), fc.double().map(String)),
    "x-request-id": fc.string()
  }, { requiredKeys: ["content-type"] }).map((headers) =>
    // `Headers` takes only Latin-1 values without line breaks.
    Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace(/[^\x20-\x7e]/g, "")]))
  )
})

describe("fuzzing every response decoder", () => {
  for (const [name, operation] of operations) {
    it(`${name}: any answer gives a typed result or a typed error`, async () => {
      await fc.assert(
        fc.asyncProperty(answer, async (random) => {
          const exit = await Effect.runPromiseExit(Effect.provide(operation, answering(random)))
          if (!isTyped(exit)) throw new Error(explain(exit))
        }),
        runs
      )
    })
  }
})

// -- validators -----------------------------------------------------------------------------------------

const maybe = <A>(arbitrary: fc.Arbitrary<A>) => fc.oneof(arbitrary, fc.anything())

const message = fc.record({
  role: maybe(fc.constantFrom("user", "system", "assistant", "tool", "robot")),
  content: maybe(fc.string()),
  tool_call_id: maybe(fc.string()),
  tool_calls: maybe(fc.array(fc.record({ id: maybe(fc.string()), type: maybe(fc.constant("function")) })))
}, { requiredKeys: [] })

const chatLike = fc.record({
  model: maybe(fc.constantFrom("fpmodel-mini", "")),
  messages: maybe(fc.array(message, { maxLength: 4 })),
  temperature: maybe(fc.double()),
  top_p: maybe(fc.double()),
  max_tokens: maybe(fc.integer()),
  n: maybe(fc.integer({ min: -2, max: 20 })),
  stop: maybe(fc.oneof(fc.string(), fc.array(fc.string()))),
  stream: maybe(fc.boolean()),
  tools: maybe(fc.array(fc.record({ type: maybe(fc.constant("function")), function: fc.anything() }))),
  documents: maybe(fc.array(fc.record({ content: maybe(fc.string()), metadata: fc.anything() }))),
  response_format: maybe(fc.record({ type: maybe(fc.constantFrom("text", "json_object")) }))
}, { requiredKeys: [] })

const tool = fc.oneof(
  fc.record({
    type: fc.constant("mcp"),
    server_label: maybe(fc.string()),
    server_url: maybe(fc.webUrl()),
    headers: fc.anything()
  }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("http"), function: fc.anything(), endpoint: fc.anything() }, {
    requiredKeys: ["type"]
  }),
  fc.record({ type: maybe(fc.constantFrom("file_search", "web_search")), urls: fc.anything() })
)

const runLike = fc.record({
  input: maybe(fc.oneof(fc.string(), fc.array(message, { maxLength: 4 }))),
  requirements: maybe(fc.array(fc.record({ name: maybe(fc.string()), description: maybe(fc.lorem()) }))),
  tools: maybe(fc.array(tool, { maxLength: 3 })),
  models: maybe(fc.array(fc.string(), { maxLength: 2 })),
  budget: maybe(fc.constantFrom("low", "medium", "high", "max")),
  include: maybe(fc.array(fc.constantFrom("data_sources", "requirements_result", "other"))),
  response_language: maybe(fc.constantFrom("english", "klingon", null)),
  output_type: fc.anything()
}, { requiredKeys: [] })

const id = fc.oneof(fc.string(), fc.constantFrom("", ".", "..", "a/b", "%2e%2e"), fc.anything())

/** Every operation that checks its input, given a random one. */
const validators: ReadonlyArray<
  readonly [string, fc.Arbitrary<Effect.Effect<unknown, unknown, StudioClient.StudioClient>>]
> = [
  ["Chat.create", maybe(chatLike).map((request) => Chat.create(request as never))],
  ["Chat.stream", maybe(chatLike).map((request) => Stream.runDrain(Chat.stream(request as never)))],
  ["Maestro.create", maybe(runLike).map((request) => Maestro.create(request as never))],
  ["Maestro.retrieve", id.map((runId) => Maestro.retrieve(runId as never))],
  [
    "Assistants.run",
    fc.tuple(id, maybe(runLike)).map(([assistantId, request]) => Assistants.run(assistantId as never, request as never))
  ],
  ["Assistants.create", maybe(runLike).map((request) => Assistants.create(request as never))],
  ["Assistants.retrieve", id.map((assistantId) => Assistants.retrieve(assistantId as never))],
  [
    "Assistants.update",
    fc.tuple(id, maybe(runLike)).map(([assistantId, request]) =>
      Assistants.update(assistantId as never, request as never)
    )
  ],
  ["Assistants.delete", id.map((assistantId) => Assistants.delete(assistantId as never))],
  [
    "Assistants.list",
    fc.option(fc.record({ workspaceIds: fc.option(fc.array(fc.string()), { nil: undefined }) }), { nil: undefined })
      .map((options) => Assistants.list(options))
  ]
]

/** A service that refuses everything it receives, so a request that passes validation ends in `ApiError`. */
const refusing = answering({ status: 503, body: "{\"detail\":\"refused\"}", headers: {} })

describe("fuzzing every validator", () => {
  for (const [name, arbitrary] of validators) {
    it(`${name}: any input gives a ValidationError or reaches the service, never a defect`, async () => {
      await fc.assert(
        fc.asyncProperty(arbitrary, async (operation) => {
          const exit = await Effect.runPromiseExit(Effect.provide(operation, refusing))
          if (!isTyped(exit)) throw new Error(explain(exit))
          if (Exit.isFailure(exit)) {
            const tag = ([...failuresOf(exit.cause)][0] as { _tag: string })._tag
            if (tag !== "ValidationError" && tag !== "ApiError") throw new Error(`unexpected ${tag}`)
          }
        }),
        runs
      )
    })
  }
})

describe("options of untyped callers", () => {
  it("Assistants.list with options that are not an object, or workspaceIds that are not strings, is a ValidationError", async () => {
    for (const options of [null, 7, { workspaceIds: "w1" }, { workspaceIds: [1] }]) {
      const exit = await Effect.runPromiseExit(Effect.provide(Assistants.list(options as never), refusing))
      if (!isTyped(exit)) throw new Error(explain(exit))
      expect(Exit.isFailure(exit) && failuresOf(exit.cause).map((error) => error._tag)).toEqual(["ValidationError"])
    }
  })
})
