import {
  bodyJson,
  describe,
  Effect,
  expect,
  FetchHttpClient,
  Fiber,
  fork,
  HttpClient,
  HttpClientRequest,
  isHttpTransportError,
  it,
  type Layer,
  outcome,
  poll,
  TestClock
} from "@studio-effect/line"
import * as Reference from "studio-effect/reference"
import { call, events } from "./support.js"

const { Fault } = Reference

const chatBody = { model: "fpmodel-mini", messages: [{ role: "user", content: "Hello there" }] }
const streamBody = { ...chatBody, stream: true }

/** The body of a request as far as it could be read, or how reading it failed. */
const attempt = (body: unknown, baseUrl = "http://reference.test") =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const request = HttpClientRequest.post(`${baseUrl}/studio/v1/chat/completions`).pipe(
      HttpClientRequest.bearerToken("k"),
      bodyJson(body)
    )
    return yield* client.execute(request).pipe(
      Effect.flatMap((response) => Effect.map(response.text, (text) => ({ status: response.status, text }))),
      outcome
    )
  })

/** The same checks, in memory and over a socket. */
const transports: ReadonlyArray<
  readonly [
    string,
    (options: Reference.ReferenceOptions) => Layer.Layer<HttpClient.HttpClient | { url: string }, unknown>
  ]
> = []
void transports

const overSocket = <A, E>(
  options: Reference.ReferenceOptions,
  f: (baseUrl: string) => Effect.Effect<A, E, HttpClient.HttpClient>
) =>
  Effect.scoped(Effect.gen(function*() {
    const server = yield* Reference.listen(options)
    return yield* f(server.url)
  })).pipe(Effect.provide(FetchHttpClient.layer))

const inMemory = <A, E>(
  options: Reference.ReferenceOptions,
  f: (baseUrl: string) => Effect.Effect<A, E, HttpClient.HttpClient>
) => Effect.provide(f("http://reference.test"), Reference.layer(options))

for (const [name, run] of [["in memory", inMemory], ["over a socket", overSocket]] as const) {
  describe(`faults ${name}`, () => {
    it.effect("injected statuses, in the order of the plan, then normal answers", () =>
      run(
        { faults: [Fault.status(503), Fault.status(500, { detail: "boom" }), null] },
        (url) =>
          Effect.gen(function*() {
            const answers = yield* Effect.forEach([1, 2, 3, 4], () => attempt(chatBody, url))
            const statuses = answers.map((a) => a._tag === "Success" ? a.success.status : -1)
            expect(statuses).toEqual([503, 500, 200, 200])
            const second = answers[1]!
            expect(second._tag === "Success" && JSON.parse(second.success.text)).toEqual({ detail: "boom" })
          })
      ))

    it.effect("a connection dropped before the answer is a transport error", () =>
      run({ faults: [Fault.drop] }, (url) =>
        Effect.gen(function*() {
          const first = yield* attempt(chatBody, url)
          expect(first._tag).toBe("Failure")
          if (first._tag === "Failure") expect(isHttpTransportError(first.failure)).toBe(true)
          const second = yield* attempt(chatBody, url)
          expect(second._tag === "Success" && second.success.status).toBe(200)
        })))

    it.effect("a connection dropped mid-stream fails the body after the first events", () =>
      run({ faults: [Fault.dropMidStream(3)] }, (url) =>
        Effect.gen(function*() {
          const client = yield* HttpClient.HttpClient
          const response = yield* client.execute(
            HttpClientRequest.post(`${url}/studio/v1/chat/completions`).pipe(
              HttpClientRequest.bearerToken("k"),
              bodyJson(streamBody)
            )
          )
          expect(response.status).toBe(200)
          const text = yield* outcome(response.text)
          expect(text._tag).toBe("Failure")
        })))

    it.effect("a stream cut before [DONE] ends cleanly after the given number of events", () =>
      run({ faults: [Fault.cutStream(2)] }, (url) =>
        Effect.gen(function*() {
          const cut = yield* attempt(streamBody, url)
          expect(cut._tag).toBe("Success")
          if (cut._tag === "Success") {
            expect(cut.success.status).toBe(200)
            const data = events(cut.success.text)
            expect(data).toHaveLength(2)
            expect(data).not.toContain("[DONE]")
          }
          const whole = yield* attempt(streamBody, url)
          expect(whole._tag === "Success" && events(whole.success.text).at(-1)).toBe("[DONE]")
        })))

    it.effect("a JSON answer cut in the middle is not valid JSON", () =>
      run({ faults: [Fault.cutStream()] }, (url) =>
        Effect.gen(function*() {
          const cut = yield* attempt(chatBody, url)
          expect(cut._tag).toBe("Success")
          if (cut._tag === "Success") expect(() => JSON.parse(cut.success.text)).toThrow()
        })))
  })
}

describe("rate limiting and delays (in memory, on the test clock)", () => {
  it.effect("over the limit: 429 with Retry-After until the window ends, counted per key", () =>
    Effect.gen(function*() {
      const chat = (key: string) => call("POST", "/studio/v1/chat/completions", { body: chatBody, key })
      expect((yield* chat("a")).status).toBe(200)
      yield* TestClock.adjust("4 seconds")
      expect((yield* chat("a")).status).toBe(200)
      const limited = yield* chat("a")
      expect(limited.status).toBe(429)
      expect(limited.headers["retry-after"]).toBe("6")
      expect(typeof limited.json.detail).toBe("string")
      expect((yield* chat("b")).status).toBe(200)
      yield* TestClock.adjust("6 seconds")
      expect((yield* chat("a")).status).toBe(200)
    }).pipe(Effect.provide(Reference.layer({ rateLimit: { limit: 2, window: "10 seconds" } }))))

  it.effect("rate limiting is off by default", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 50; i++) expect((yield* call("GET", "/studio/v1/assistants")).status).toBe(200)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("a delay holds the answer until the clock has moved", () =>
    Effect.gen(function*() {
      const fiber = yield* fork(call("POST", "/studio/v1/chat/completions", { body: chatBody }))
      yield* TestClock.adjust("4 seconds")
      expect(poll(fiber)).toBeUndefined()
      yield* TestClock.adjust("1 second")
      const answer = yield* Fiber.join(fiber)
      expect(answer.status).toBe(200)
    }).pipe(Effect.provide(Reference.layer({ faults: [[Fault.delay("5 seconds")]] }))))

  it.effect("a delay then a status: entries may combine faults", () =>
    Effect.gen(function*() {
      const fiber = yield* fork(call("POST", "/studio/v1/chat/completions", { body: chatBody }))
      yield* TestClock.adjust("1 second")
      expect((yield* Fiber.join(fiber)).status).toBe(502)
    }).pipe(Effect.provide(Reference.layer({ faults: [[Fault.delay("1 second"), Fault.status(502)]] }))))

  it.effect("a plan may be a function of the request; random plans repeat for the same seed", () =>
    Effect.gen(function*() {
      const onlyRuns = Reference.layer({
        faults: (request) => request.path.includes("/maestro/") ? Fault.status(503) : undefined
      })
      const statuses = yield* Effect.provide(
        Effect.all([
          Effect.map(call("POST", "/studio/v1/maestro/runs", { body: { input: "x" } }), (a) => a.status),
          Effect.map(call("POST", "/studio/v1/chat/completions", { body: chatBody }), (a) => a.status)
        ]),
        onlyRuns
      )
      expect(statuses).toEqual([503, 200])
      const sequence = (seed: number) =>
        Effect.provide(
          Effect.forEach(Array.from({ length: 20 }), () =>
            Effect.map(call("GET", "/studio/v1/assistants"), (a) => a.status)),
          Reference.layer({ faults: Fault.random({ probability: 0.5, faults: [Fault.status(503)], seed }) })
        )
      const first = yield* sequence(1)
      expect(yield* sequence(1)).toEqual(first)
      expect(first).toContain(503)
      expect(first).toContain(200)
    }))
})
