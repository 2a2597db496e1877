/**
 * Explicit `null` for an optional field means the field is absent, on every route of the reference
 * service and in the SDK's request schemas; document metadata is a `[{key, value}]` list or a
 * `{key: value}` map, sent as the map.
 */
import { describe, Effect, expect, HttpClient, HttpClientResponse, it, Layer, Redacted } from "@studio-effect/line"
import * as fc from "fast-check"
import { Chat, ChatSchema, StudioClient, StudioError } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { call } from "../reference/support.js"
import { expectIssuesAt, expectValid } from "../validation/support.js"

const chatOptional = [
  "tools",
  "documents",
  "response_format",
  "max_tokens",
  "temperature",
  "top_p",
  "stop",
  "n",
  "stream"
]
const runOptional = [
  "input",
  "system_prompt",
  "requirements",
  "tools",
  "models",
  "budget",
  "response_language",
  "include",
  "tool_resources"
]
const assistantOptional = [
  "description",
  "avatar",
  "system_prompt",
  "requirements",
  "tools",
  "models",
  "budget",
  "response_language",
  "workflow_config",
  "config_overrides"
]
const runAssistantOptional = ["output_type", "include", "system_prompt", "requirements", "tools", "models", "budget"]

const nulls = (fields: ReadonlyArray<string>) =>
  fc.subarray([...fields], { minLength: 1 }).map((chosen) => Object.fromEntries(chosen.map((field) => [field, null])))

describe("explicit null is absent, on every route", () => {
  it("chat, runs, and assistants (create, modify, run) accept null for any optional field", async () => {
    await fc.assert(
      fc.asyncProperty(
        nulls(chatOptional),
        nulls(runOptional),
        nulls([...assistantOptional, "optimization", "assistant_type", "starter_questions"]),
        nulls([...assistantOptional, "is_archived", "visibility", "name"]),
        nulls(runAssistantOptional),
        (chat, run, create, modify, runAssistant) =>
          Effect.runPromise(
            Effect.gen(function*() {
              const completion = yield* call("POST", "/studio/v1/chat/completions", {
                body: {
                  model: "fpmodel-mini",
                  messages: [{ role: "user", content: "hi" }, {
                    role: "assistant",
                    content: "hello",
                    tool_calls: null
                  }],
                  ...chat
                }
              })
              expect(completion.status, completion.text).toBe(200)
              const created = yield* call("POST", "/studio/v1/maestro/runs", { body: { input: "hi", ...run } })
              expect(created.status, created.text).toBe(200)
              const assistant = yield* call("POST", "/studio/v1/assistants", { body: { name: "a", ...create } })
              expect(assistant.status, assistant.text).toBe(200)
              // a null field is not stored as null
              for (const field of Object.keys(create)) expect(assistant.json[field]).not.toBeNull()
              const id = assistant.json.id
              const modified = yield* call("PATCH", `/studio/v1/assistants/${id}`, { body: modify })
              expect(modified.status, modified.text).toBe(200)
              expect(modified.json.name).toBe("a")
              const ran = yield* call("POST", `/studio/v1/assistants/${id}/run`, {
                body: { input: [{ role: "user", content: "hi" }], ...runAssistant }
              })
              expect(ran.status, ran.text).toBe(200)
            }).pipe(Effect.provide(Reference.layer()))
          )
      ),
      { numRuns: 40 }
    )
  })

  it.effect("null for a required field is still refused, at the field", () =>
    Effect.gen(function*() {
      const answer = yield* call("POST", "/studio/v1/chat/completions", { body: { model: null, messages: null } })
      expect(answer.status).toBe(422)
      expect(answer.json.detail.map((issue: any) => issue.loc)).toEqual([["body", "model"], ["body", "messages"]])
    }).pipe(Effect.provide(Reference.layer())))
})

/** A client whose transport records each body and answers with a fixed completion. */
const recording = () => {
  const bodies: Array<any> = []
  const transport = HttpClient.make((request) =>
    Effect.sync(() => {
      const text = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
      bodies.push(JSON.parse(text))
      return HttpClientResponse.fromWeb(
        request,
        new Response(
          JSON.stringify({
            id: "chat-1",
            choices: [{
              index: 0,
              message: { role: "assistant", content: "ok", tool_calls: null },
              finish_reason: "stop"
            }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
          }),
          { status: 200, headers: { "content-type": "application/json" } }
        )
      )
    })
  )
  const layer = StudioClient.layer({ apiKey: Redacted.make("k"), baseUrl: "https://studio.test" }).pipe(
    Layer.provide(Layer.succeed(HttpClient.HttpClient, transport)),
    Layer.orDie
  )
  return { bodies, layer }
}

describe("document metadata", () => {
  it.effect("the SDK sends the map, whichever shape it was given, and leaves explicit nulls out", () => {
    const client = recording()
    return Effect.gen(function*() {
      yield* Chat.create({
        model: "fpmodel-mini",
        messages: [{ role: "user", content: "hi" }],
        documents: [
          { content: "a", metadata: [{ key: "author", value: "Ada" }, { key: "year", value: "1843" }] },
          { content: "b", metadata: { author: "Ada" }, id: null }
        ],
        n: null,
        tools: null
      })
      expect(client.bodies[0]).toEqual({
        model: "fpmodel-mini",
        messages: [{ role: "user", content: "hi" }],
        documents: [{ content: "a", metadata: { author: "Ada", year: "1843" } }, {
          content: "b",
          metadata: { author: "Ada" }
        }]
      })
    }).pipe(Effect.provide(client.layer))
  })

  it.effect("a list with a repeated key is a ValidationError at the second entry's key, and nothing is sent", () => {
    const client = recording()
    return Effect.gen(function*() {
      const error = yield* Effect.flip(Chat.create({
        model: "fpmodel-mini",
        messages: [{ role: "user", content: "hi" }],
        documents: [{ content: "a", metadata: [{ key: "author", value: "Ada" }, { key: "author", value: "Bob" }] }]
      }))
      expect(error).toBeInstanceOf(StudioError.ValidationError)
      expect((error as StudioError.ValidationError).issues.map((issue) => issue.path)).toEqual([
        "documents[0].metadata[1].key"
      ])
      expect(client.bodies).toHaveLength(0)
    }).pipe(Effect.provide(client.layer))
  })

  it.effect("the service takes both shapes alike and refuses a repeated key with a 422", () =>
    Effect.gen(function*() {
      const body = (metadata: unknown) => ({
        model: "fpmodel-mini",
        temperature: 0,
        messages: [{ role: "user", content: "Who wrote the notes?" }],
        documents: [{ content: "The notes were written in 1843.", metadata }]
      })
      const listed = yield* call("POST", "/studio/v1/chat/completions", {
        body: body([{ key: "author", value: "Ada" }])
      })
      const mapped = yield* call("POST", "/studio/v1/chat/completions", { body: body({ author: "Ada" }) })
      expect(listed.status).toBe(200)
      expect(mapped.status).toBe(200)
      expect(listed.json.choices[0].message.content).toContain("(source: Ada)")
      expect(mapped.json.choices[0].message.content).toBe(listed.json.choices[0].message.content)
      const repeated = yield* call("POST", "/studio/v1/chat/completions", {
        body: body([{ key: "author", value: "Ada" }, { key: "author", value: "Bob" }])
      })
      expect(repeated.status).toBe(422)
      expect(repeated.json.detail).toEqual([{
        loc: ["body", "documents", 0, "metadata", 1, "key"],
        msg: "metadata key \"author\" appears more than once: give each key one value",
        type: "value_error"
      }])
    }).pipe(Effect.provide(Reference.layer())))
})

describe("document metadata, as properties", () => {
  const key = fc.string({ maxLength: 8 })
  const list = fc.uniqueArray(fc.record({ key, value: fc.string({ maxLength: 8 }) }), {
    minLength: 1,
    maxLength: 6,
    selector: (entry) => entry.key
  })
  const request = (metadata: unknown) => ({
    model: "fpmodel-mini",
    messages: [{ role: "user", content: "hi" }],
    documents: [{ content: "c", metadata }]
  })

  it("a list with distinct keys decodes to the map of its entries, the same as that map given directly", () => {
    fc.assert(
      fc.property(list, (entries) => {
        const map = Object.fromEntries(entries.map((entry) => [entry.key, entry.value]))
        const fromList = expectValid(ChatSchema.ChatRequest, request(entries))
        const fromMap = expectValid(ChatSchema.ChatRequest, request(map))
        expect(fromList.documents![0]!.metadata).toEqual(map)
        expect(fromMap.documents![0]!.metadata).toEqual(map)
      }),
      { numRuns: 200 }
    )
  })

  it("a list that repeats a key is refused at each repeat's key, and nowhere else", () => {
    fc.assert(
      fc.property(list, fc.nat(), fc.nat(), fc.string({ maxLength: 8 }), (entries, from, to, value) => {
        const repeated = entries[from % entries.length]!.key
        const at = to % (entries.length + 1)
        const out = [...entries.slice(0, at), { key: repeated, value }, ...entries.slice(at)]
        const second = out.findIndex((entry, index) =>
          entry.key === repeated && out.findIndex((other) => other.key === repeated) < index
        )
        expectIssuesAt(
          ChatSchema.ChatRequest,
          request(out),
          [`documents[0].metadata[${second}].key`],
          /appears more than once/
        )
      }),
      { numRuns: 200 }
    )
  })
})

describe("an assistant message, as a property", () => {
  const absent = fc.constantFrom("null", "absent")
  const toolCalls = fc.array(
    fc.record({
      id: fc.string({ minLength: 1, maxLength: 6 }),
      type: fc.constant("function"),
      function: fc.record({ name: fc.string({ minLength: 1, maxLength: 6 }), arguments: fc.constant("{}") })
    }),
    { maxLength: 3 }
  )

  it("needs content or a tool call: content null or absent is fine with tool calls, refused without", () => {
    fc.assert(
      fc.property(
        fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
        absent,
        fc.oneof(toolCalls, fc.constant(null), fc.constant(undefined)),
        (text, how, calls) => {
          const message: Record<string, unknown> = { role: "assistant" }
          if (text !== undefined) message.content = text
          else if (how === "null") message.content = null
          if (calls !== undefined) message.tool_calls = calls
          const body = { model: "fpmodel-mini", messages: [{ role: "user", content: "hi" }, message] }
          if (text !== undefined || (Array.isArray(calls) && calls.length > 0)) {
            expectValid(ChatSchema.ChatRequest, body)
          } else {expectIssuesAt(
              ChatSchema.ChatRequest,
              body,
              ["messages[1].content"],
              /needs content or at least one tool call/
            )}
        }
      ),
      { numRuns: 300 }
    )
  })
})
