/**
 * Answers nested thousands of levels deep (10 KB is enough): every parse error is formatted within a fixed
 * depth, so each is a `DecodeError` naming where the answer broke the interface, never a stack overflow.
 * Over a real socket on 127.0.0.1, through every transport.
 */
import { describe, Effect, expect, it, Stream } from "@studio-effect/line"
import { Assistants, Chat, Maestro } from "studio-effect"
import { chatRequest, clientLayer, failureOf, transportNames } from "./harness.js"
import { hostileServer } from "./hostile.js"

/** A JSON value nested `levels` deep, arrays and objects in turn. */
const nested = (levels: number): string => "[{\"a\":".repeat(levels / 2) + "1" + "}]".repeat(levels / 2)

const deep = nested(3000)

const usage = "{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}"

const answers = {
  completion: `{"id":${deep},"choices":[],"usage":${usage}}`,
  event: `data: {"id":"c-1","choices":[{"index":0,"delta":{"content":${deep}}}]}\n\n`,
  run: `{"id":${deep},"status":"completed"}`,
  list: `{"results":[{"id":"asst-1","name":${deep}}]}`
}

describe("deeply nested answers", () => {
  it("the answers are about 12 KB and 3,000 levels deep", () => {
    expect(answers.completion.length).toBeLessThan(13_000)
    expect(JSON.parse(answers.run).id[0].a[0].a.length).toBe(1)
  })

  for (const transport of transportNames) {
    it.live(`a completion, a stream event, a run and an assistant list: each a DecodeError, over ${transport}`, () =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* hostileServer((request, response) => {
          const url = request.url ?? ""
          const streamed = url.endsWith("/chat/completions") && request.headers.accept === "text/event-stream"
          response.writeHead(200, { "content-type": streamed ? "text/event-stream" : "application/json" })
          response.end(
            streamed
              ? answers.event
              : url.endsWith("/chat/completions")
              ? answers.completion
              : url.includes("/maestro/runs/")
              ? answers.run
              : answers.list
          )
        })
        const calls = {
          "chat.create": Chat.create(chatRequest),
          "chat.stream": Stream.runDrain(Chat.stream(chatRequest)),
          "maestro.retrieve": Maestro.retrieve("run-1"),
          "assistants.list": Assistants.list()
        }
        for (const [operation, call] of Object.entries(calls)) {
          const exit = yield* Effect.exit(
            Effect.provide(call as Effect.Effect<unknown, any>, clientLayer(server.url, transport))
          )
          const error = failureOf(exit)
          expect(error._tag).toBe("DecodeError")
          expect(error.message).toContain(`Unexpected ${operation} response`)
          expect(error.message).toContain("does not match the interface")
          expect(error.message.length).toBeLessThan(2_000)
        }
      })))
  }
})
