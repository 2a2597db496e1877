/**
 * Every answer of the reference service names itself and its caller's window of requests: an
 * `x-request-id` of its own and the `x-ratelimit-*-requests` figures the SDK reads, on successes, refusals
 * (401, 404, 422, 429) and event streams alike, in memory and over a socket on every transport; an injected
 * fault's own figures are kept; and the SDK's errors carry them.
 */
import { describe, Effect, expect, type HttpClient, it, type Layer, transportLayers } from "@studio-effect/line"
import { Chat } from "studio-effect"
import { rateLimitOf } from "studio-effect-core/wire/rateLimit"
import * as Reference from "studio-effect/reference"
import { referenceClients } from "../support/referenceClients.js"
import { call } from "./support.js"

const key = "answer-metadata-key"
const requestId = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const chatBody = { model: "fpmodel-mini", messages: [{ role: "user", content: "Hello there" }] }

/** The service over `transport` at a base URL: in memory, or listening on 127.0.0.1 (port 0). */
const services: ReadonlyArray<
  readonly [
    string,
    (
      options: Reference.ReferenceOptions,
      f: (baseUrl: string) => Effect.Effect<void, unknown, HttpClient.HttpClient>
    ) => Effect.Effect<void, unknown>
  ]
> = [
  ["in memory", (options, f) => Effect.provide(f("http://reference.test"), Reference.layer(options))],
  ...transportLayers.map(([name, transport]: readonly [string, Layer.Layer<HttpClient.HttpClient>]) =>
    [
      `over a socket (${name})`,
      (
        options: Reference.ReferenceOptions,
        f: (baseUrl: string) => Effect.Effect<void, unknown, HttpClient.HttpClient>
      ) =>
        Effect.scoped(Effect.flatMap(Reference.listen(options), (server) => f(server.url))).pipe(
          Effect.provide(transport)
        )
    ] as const
  )
]

describe("the reference service's answer metadata", () => {
  for (const [where, serve] of services) {
    it.effect(`every answer, success, refusal or stream, has a request id and the caller's window ${where}`, () =>
      serve({ apiKeys: [key], rateLimit: { limit: 4 } }, (baseUrl) =>
        Effect.gen(function*() {
          const send = (
            method: "GET" | "POST",
            path: string,
            options: { readonly body?: unknown; readonly raw?: string; readonly key?: string | null } = {}
          ) => call(method, path, { key, ...options, baseUrl })
          const answers = [
            yield* send("GET", "/studio/v1/models"),
            yield* send("POST", "/studio/v1/chat/completions", { body: { ...chatBody, stream: true } }),
            yield* send("POST", "/studio/v1/chat/completions", { raw: "{not json" }),
            yield* send("GET", "/studio/v1/library/files/no-such-file"),
            yield* send("GET", "/studio/v1/models"),
            yield* send("GET", "/studio/v1/models", { key: null }),
            yield* send("GET", "/studio/v1/models", { key: "another-key" }),
            yield* send("GET", "/no/such/path")
          ]
          expect(answers.map((answer) => answer.status)).toEqual([200, 200, 422, 404, 429, 401, 401, 404])
          expect(answers[1]!.headers["content-type"]).toMatch(/^text\/event-stream/)
          expect(answers[1]!.text).toContain("data: [DONE]")
          const ids = answers.map((answer) => answer.headers["x-request-id"])
          for (const id of ids) expect(id).toMatch(requestId)
          expect(new Set(ids).size).toBe(answers.length)
          // the key's four requests count down its window and the fifth is refused; callers without the key
          // have it all; a path the service does not serve is not counted, but reports the key's window
          const figures = answers.map((answer) => rateLimitOf(answer.headers))
          expect(figures.map((figure) => figure.remainingRequests)).toEqual([3, 2, 1, 0, 0, 4, 4, 0])
          for (const figure of figures) {
            expect(figure.limitRequests).toBe(4)
            expect(figure.resetRequests).toMatch(/^\d+s$/)
          }
        })))

    it.effect(`an injected fault's own rate-limit headers are kept ${where}`, () =>
      serve(
        {
          faults: [Reference.Fault.status(429, { headers: { "x-ratelimit-remaining-requests": "0" } })]
        },
        (baseUrl) =>
          Effect.gen(function*() {
            const answer = yield* call("POST", "/studio/v1/chat/completions", { body: chatBody, baseUrl })
            expect(answer.status).toBe(429)
            expect(answer.headers["x-ratelimit-remaining-requests"]).toBe("0")
            expect(answer.headers["x-ratelimit-limit-requests"]).toBe("1000000")
            expect(answer.headers["x-request-id"]).toMatch(requestId)
          })
      ))
  }

  for (const [where, client] of referenceClients()) {
    it.effect(`the SDK's errors carry the service's request id and figures ${where}`, () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(Effect.provide(
          Chat.create({ model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] }).pipe(
            Effect.andThen(Chat.create({ model: "no-such-model", messages: [{ role: "user", content: "Hi" }] }))
          ),
          yield* client
        ))
        expect(error._tag).toBe("ValidationError")
        const refused = error as { readonly requestId?: string; readonly headers?: Record<string, string> }
        expect(refused.requestId).toMatch(requestId)
        expect(refused.headers?.["x-request-id"]).toBe(refused.requestId)
        expect(rateLimitOf(refused.headers ?? {}).remainingRequests).toBe(1_000_000 - 2)
      }))
  }
})
