import {
  collect,
  describe,
  Effect,
  expect,
  HttpClient,
  HttpClientResponse,
  it,
  Layer,
  Redacted
} from "@studio-effect/line"
/**
 * Decoding loses nothing: every field the real service sends (the fields the schemas name, and any other
 * field at the top level or in a nested object the service owns) comes out of the SDK as it was sent, for
 * chat completions, streamed chunks, runs and assistants. Properties through the public operations over a
 * transport that answers the generated JSON.
 */
import * as fc from "fast-check"
import { Assistants, Chat, Maestro, StudioClient } from "studio-effect"

const runs = { numRuns: 60 }

/** A client whose transport answers every request with `body` (and `contentType`). */
const answering = (body: string, contentType = "application/json") =>
  StudioClient.layer({ apiKey: Redacted.make("k"), maxRetries: 0 }).pipe(
    Layer.provide(Layer.succeed(
      HttpClient.HttpClient,
      HttpClient.make((request) =>
        Effect.succeed(HttpClientResponse.fromWeb(
          request,
          new Response(body, { status: 200, headers: { "content-type": contentType } })
        ))
      )
    )),
    Layer.orDie
  )

type Json = Record<string, unknown>

/**
 * A name no field of the interface has: any string that is not a lowercase snake_case name (every field of the
 * interface is one), or a snake_case name under the `x_` prefix, which none of them has. (A snake_case name such
 * as `id` or `name` is a field some object of the interface gives a type, which an extra field may not break;
 * `__proto__`, which no JavaScript object can hold as a plain field once assigned, is one too.)
 */
const unknownName = fc.oneof(
  fc.string({ maxLength: 12 }).filter((key) => !/^[a-z_][a-z0-9_]*$/.test(key)),
  fc.stringMatching(/^x_[a-z0-9_]{1,10}$/)
)

/**
 * Fields an object of the service may carry beyond those it is given: any name no field of the interface has,
 * any JSON value, as JSON gives them back.
 */
const extras = fc.dictionary(unknownName, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
  .map((fields): Json => JSON.parse(JSON.stringify(fields)))

/** `base` with its own extra fields, and each nested object given by `nested` built the same way. */
const open = (base: Json, nested: Record<string, fc.Arbitrary<unknown>> = {}): fc.Arbitrary<Json> =>
  fc.tuple(extras, fc.record(nested)).map(([more, children]) => ({ ...more, ...base, ...children }))

const run = <A, E>(
  effect: Effect.Effect<A, E, StudioClient.StudioClient>,
  layer: Layer.Layer<StudioClient.StudioClient>
) => Effect.runPromise(Effect.provide(effect, layer))

// ---------------------------------------------------------------------------------------------------------
// the service's answers, every field given, with extra fields at every level
// ---------------------------------------------------------------------------------------------------------

const toolCall = open({ id: "call_1", type: "function" }, {
  function: open({ name: "lookup", arguments: "{\"q\":\"x\"}" })
})
const logprobs = fc.option(
  open({}, {
    content: fc.array(
      open({ token: "Hi", logprob: -0.25 }, {
        top_logprobs: fc.array(open({ token: "Hello", logprob: -1.5 }), { maxLength: 2 })
      }),
      { maxLength: 2 }
    )
  }),
  { nil: null }
)
const completion = open({ id: "chat-1" }, {
  choices: fc.tuple(
    open({ index: 0, finish_reason: "tool_calls" }, {
      logprobs,
      message: open({ role: "assistant", content: "Hi", reasoning_content: "the user greets" }, {
        tool_calls: fc.array(toolCall, { maxLength: 2 })
      })
    })
  ),
  usage: open({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }),
  meta: extras
})

const chunks = fc.tuple(
  open({ id: "chat-1", usage: null }, {
    choices: fc.tuple(open({ index: 0, finish_reason: null }, { delta: open({ role: "assistant", content: "" }) })),
    meta: extras
  }),
  open({ id: "chat-1", usage: null }, {
    choices: fc.tuple(open({ index: 0, finish_reason: null }, {
      delta: open({}, {
        tool_calls: fc.tuple(open({ index: 0, id: "call_1", type: "function" }, {
          function: open({ name: "lookup", arguments: "{}" })
        }))
      })
    }))
  }),
  open({ id: "chat-1" }, {
    choices: fc.tuple(open({ index: 0, logprobs: null, finish_reason: "stop" }, { delta: open({ content: "" }) })),
    usage: open({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })
  })
)

const run_ = open({
  id: "6f1c1a52-7c8e-4f43-9d43-8a3f2b1e0c11",
  status: "completed",
  result: "An answer",
  created_at: "2026-11-24T12:00:00.000Z",
  error: null
}, {
  data_sources: open({}, {
    web_search: fc.array(open({ url: "https://www.example.com/a", text: "A page", score: 0.9, id: "w1" }), {
      maxLength: 2
    }),
    file_search: fc.array(
      open({ file_id: "f1", file_name: "a.txt", text: "A segment", score: 0.5, order: 0 }),
      { maxLength: 2 }
    ),
    tool_calls: fc.array(extras, { maxLength: 2 })
  }),
  requirements_result: open({ score: 1, finish_reason: "all_requirements_met" }, {
    requirements: fc.array(open({ name: "short", description: "be short", score: 1, reason: "it is" }), {
      maxLength: 2
    })
  })
})

const assistant = open({
  id: "asst_1",
  object: "assistant",
  name: "Helper",
  created_at: "2026-11-24T12:00:00.000Z",
  updated_at: "2026-11-24T12:00:00.000Z",
  response_language: "unset"
}, {
  tools: fc.array(open({ type: "web_search", urls: ["example.com"] }), { maxLength: 2 }),
  tool_resources: open({}, { file_search: open({ labels: ["hr"] }) }),
  requirements: fc.array(open({ title: "Short", description: "be short", type: "mandatory" }), { maxLength: 2 })
})

// ---------------------------------------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------------------------------------

const request = { model: "fpmodel-mini", messages: [{ role: "user" as const, content: "Hi" }] }

describe("what the service sends comes out of the SDK unchanged", () => {
  it("Chat.create: the completion, with reasoning_content, meta and every field it does not name", () =>
    fc.assert(
      fc.asyncProperty(completion, async (body) => {
        const answer = await run(Chat.create(request), answering(JSON.stringify(body)))
        expect(answer).toStrictEqual(body)
      }),
      runs
    ))

  it("Chat.stream: each chunk, tool-call pieces and meta included", () =>
    fc.assert(
      fc.asyncProperty(chunks, async (events) => {
        const body = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("") + "data: [DONE]\n\n"
        const answer = await run(collect(Chat.stream(request)), answering(body, "text/event-stream"))
        expect(answer).toStrictEqual(events)
      }),
      runs
    ))

  it("Maestro.retrieve: the run, with created_at, its sources (web, files, tool calls) and its scores", () =>
    fc.assert(
      fc.asyncProperty(run_, async (body) => {
        const answer = await run(Maestro.retrieve("run-1"), answering(JSON.stringify(body)))
        expect(answer).toStrictEqual(body)
      }),
      runs
    ))

  it("Assistants.retrieve, list and delete: the records, tool_resources and unknown fields included", () =>
    fc.assert(
      fc.asyncProperty(assistant, extras, extras, async (
        body,
        listExtras,
        deleteExtras
      ) => {
        expect(await run(Assistants.retrieve("asst_1"), answering(JSON.stringify(body)))).toStrictEqual(body)
        const list = { ...listExtras, results: [body] }
        expect(await run(Assistants.list(), answering(JSON.stringify(list)))).toStrictEqual(list)
        const deleted = { ...deleteExtras, id: "asst_1", object: "assistant", deleted: true }
        expect(await run(Assistants.delete("asst_1"), answering(JSON.stringify(deleted)))).toStrictEqual(deleted)
      }),
      runs
    ))
})
