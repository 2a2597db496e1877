/**
 * `studio-effect/undici` as an `HttpClient` of its own, over a real socket on 127.0.0.1: what any user of
 * the platform's interface gets from it (bodies of every kind both ways, headers, URL parameters but never a
 * fragment, cookies, redirects returned, failures typed, interruption releasing the socket). The client's own
 * use of it runs through the whole fault matrix, the bounds and the fiber counts (the suite's `reliability/`
 * and `fibers.test.ts`).
 */
import {
  callback,
  collect,
  describe,
  type DurationInput,
  Effect,
  expect,
  Fiber,
  fork,
  HttpBody,
  HttpClient,
  httpClientFailure,
  HttpClientRequest,
  it,
  jsonBody,
  Layer,
  Redacted,
  Stream,
  UndiciHttpClient
} from "@studio-effect/line"
import * as http from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { Chat, StudioClient } from "studio-effect"
import { waitUntil } from "../support/clock.js"
import { testServer } from "../support/testServer.js"

const decoder = new TextDecoder()

describe("UndiciHttpClient", () => {
  it.live("sends every kind of body and reads the answer as text, JSON, bytes and a stream", () =>
    Effect.gen(function*() {
      const server = yield* testServer((request) => ({
        headers: { "set-cookie": "session=abc; Path=/", "x-echo": request.headers["content-type"] ?? "" },
        json: { method: request.method, body: request.body }
      }))
      const client = yield* HttpClient.HttpClient
      const post = (body: HttpBody.HttpBody) =>
        client.execute(HttpClientRequest.post(`${server.url}/echo`).pipe(HttpClientRequest.setBody(body)))

      const json = yield* Effect.flatMap(post(jsonBody({ a: 1 })), (response) => response.json)
      expect(json).toEqual({ method: "POST", body: "{\"a\":1}" })

      const text = yield* post(HttpBody.text("plain", "text/plain"))
      expect(text.status).toBe(200)
      expect(text.headers["x-echo"]).toBe("text/plain")
      expect(text.cookies.cookies["session"]?.value).toBe("abc")
      expect(JSON.parse(yield* text.text)).toEqual({ method: "POST", body: "plain" })

      const streamed = yield* post(HttpBody.stream(Stream.make("st", "re", "am").pipe(Stream.encodeText)))
      const bytes = yield* collect(streamed.stream)
      const whole = bytes.map((part) => decoder.decode(part)).join("")
      expect(JSON.parse(whole)).toEqual({ method: "POST", body: "stream" })

      const buffer = yield* Effect.flatMap(post(HttpBody.empty), (response) => response.arrayBuffer)
      expect(JSON.parse(decoder.decode(buffer))).toEqual({ method: "POST", body: "" })
    }).pipe(Effect.provide(UndiciHttpClient.layer)))

  it.live("sends bytes, a form and URL parameters, and reads a form and URL parameters back", () =>
    Effect.gen(function*() {
      const server = yield* testServer((request) =>
        request.url === "/form"
          ? { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=1&b=two%20words" }
          : { json: { type: request.headers["content-type"] ?? "", body: request.body } }
      )
      const client = yield* HttpClient.HttpClient
      const echo = (body: (request: HttpClientRequest.HttpClientRequest) => HttpClientRequest.HttpClientRequest) =>
        Effect.flatMap(client.execute(HttpClientRequest.post(`${server.url}/echo`).pipe(body)), (r) => r.json)

      const bytes = yield* echo(HttpClientRequest.bodyUint8Array(new TextEncoder().encode("bytes"), "x/bytes"))
      expect(bytes).toEqual({ type: "x/bytes", body: "bytes" })

      const params = yield* echo(HttpClientRequest.bodyUrlParams({ q: "a b", n: "1" }))
      expect(params).toEqual({ type: "application/x-www-form-urlencoded", body: "q=a+b&n=1" })

      const form = new FormData()
      form.append("field", "value")
      form.append("file", new Blob(["content"], { type: "text/plain" }), "a.txt")
      const multipart = (yield* echo(HttpClientRequest.bodyFormData(form))) as { type: string; body: string }
      const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(multipart.type)?.[1]
      expect(boundary).toBeDefined()
      expect(multipart.body).toContain(`--${boundary}\r\nContent-Disposition: form-data; name="field"\r\n\r\nvalue`)
      expect(multipart.body).toContain(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\ncontent`
      )

      const answered = yield* client.get(`${server.url}/form`)
      expect([...(yield* answered.urlParamsBody)]).toEqual([["a", "1"], ["b", "two words"]])
      const again = yield* client.get(`${server.url}/form`)
      expect([...(yield* again.formData).entries()]).toEqual([["a", "1"], ["b", "two words"]])
    }).pipe(Effect.provide(UndiciHttpClient.layer)))

  it.live("sends the request's method, headers and URL parameters, never its fragment", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ json: {} }))
      const client = yield* HttpClient.HttpClient
      const request = HttpClientRequest.put(`${server.url}/path?a=1#fragment`).pipe(
        HttpClientRequest.setUrlParam("b", "two words"),
        HttpClientRequest.setHeader("x-custom", "value")
      )
      const response = yield* client.execute(request)
      expect(response.status).toBe(200)
      expect(server.requests[0]?.method).toBe("PUT")
      expect(server.requests[0]?.url).toBe("/path?a=1&b=two+words")
      expect(server.requests[0]?.headers["x-custom"]).toBe("value")
    }).pipe(Effect.provide(UndiciHttpClient.layer)))

  it.live("a redirect is returned, not followed", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ status: 302, headers: { location: "http://127.0.0.1:1/elsewhere" } }))
      const response = yield* HttpClient.get(`${server.url}/moved`)
      expect(response.status).toBe(302)
      expect(response.headers["location"]).toBe("http://127.0.0.1:1/elsewhere")
      expect(server.requests).toHaveLength(1)
    }).pipe(Effect.provide(UndiciHttpClient.layer)))

  it.live("a refused connection is a failure of the request, of its transport", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(HttpClient.get("http://127.0.0.1:1/nothing"))
      expect(httpClientFailure(error)).toEqual({ of: "request", reason: "Transport" })
    }).pipe(Effect.provide(UndiciHttpClient.layer)))

  it.live("an answer that is not JSON is a failure of the response, of its decoding", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ body: "{not json" }))
      const response = yield* HttpClient.get(`${server.url}/broken`)
      const error = yield* Effect.flip(response.json)
      expect(httpClientFailure(error)).toEqual({ of: "response", reason: "Decode" })
    }).pipe(Effect.provide(UndiciHttpClient.layer)))

  it.live("interrupting a request waiting for its answer closes its socket", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ chunks: [], end: false }))
      const fiber = yield* fork(HttpClient.get(`${server.url}/slow`).pipe(Effect.flatMap((r) => r.text)))
      yield* waitUntil(() => server.requests.length === 1)
      yield* Fiber.interrupt(fiber)
      yield* waitUntil(() => server.closedSockets() === 1)
    }).pipe(Effect.provide(UndiciHttpClient.layer)))

  it.live("a body stream left early releases its socket", () =>
    Effect.gen(function*() {
      const server = yield* testServer(() => ({ chunks: ["first ", "second"], end: false }))
      const response = yield* HttpClient.get(`${server.url}/open`)
      const first = yield* Stream.runHead(response.stream)
      expect(first._tag).toBe("Some")
      yield* waitUntil(() => server.closedSockets() === 1)
    }).pipe(Effect.provide(UndiciHttpClient.layer)))

  describe("the client's attempt timeout on the live clock: a timer that aborts the request, no fiber", () => {
    /**
     * The client with an attempt timeout of `timeout`: long enough for the request to reach a server on a busy
     * machine (the tests see its socket closed), short enough for a test.
     */
    const client = (url: string, timeout: DurationInput = "200 millis") =>
      StudioClient.layer({ apiKey: Redacted.make("sk-test"), baseUrl: url, timeout, maxRetries: 0 }).pipe(
        Layer.provide(UndiciHttpClient.layer),
        Layer.orDie
      )
    const request = { model: "fpmodel-mini", messages: [{ role: "user" as const, content: "Hi" }] }

    it.live("an answer whose body never ends: TimeoutError (attempt), socket closed", () =>
      Effect.gen(function*() {
        const server = yield* testServer(() => ({ status: 200, chunks: ["{\"id\":"], end: false }))
        const error = yield* Chat.create(request).pipe(Effect.provide(client(server.url)), Effect.flip)
        expect(error._tag).toBe("TimeoutError")
        if (error._tag === "TimeoutError") expect(error.phase).toBe("attempt")
        yield* waitUntil(() => server.closedSockets() === 1)
      }))

    it.live("a stream whose headers never come: TimeoutError (attempt), socket closed", () =>
      Effect.gen(function*() {
        const sockets: Array<Socket> = []
        const silent = http.createServer(() => {})
        silent.on("connection", (socket) => sockets.push(socket))
        yield* Effect.acquireRelease(
          callback<void>((resume) => {
            silent.listen(0, "127.0.0.1", () => resume(Effect.void))
          }),
          () => Effect.sync(() => silent.close())
        )
        const { port } = silent.address() as AddressInfo
        const error = yield* Stream.runDrain(Chat.stream(request)).pipe(
          Effect.provide(client(`http://127.0.0.1:${port}`)),
          Effect.flip
        )
        expect(error._tag).toBe("TimeoutError")
        if (error._tag === "TimeoutError") expect(error.phase).toBe("attempt")
        yield* waitUntil(() => sockets.length === 1 && sockets[0]!.destroyed)
      }))

    it.live("a stream idle past its idle timeout on the live clock: TimeoutError (stream-idle), socket closed", () =>
      Effect.gen(function*() {
        const role = JSON.stringify({ id: "c", choices: [{ index: 0, delta: { role: "assistant" } }] })
        const server = yield* testServer(() => ({ chunks: [`data: ${role}\n\n`], end: false }))
        const layer = StudioClient.layer({
          apiKey: Redacted.make("sk-test"),
          baseUrl: server.url,
          streamIdleTimeout: "50 millis"
        }).pipe(Layer.provide(UndiciHttpClient.layer), Layer.orDie)
        const error = yield* Stream.runDrain(Chat.stream(request)).pipe(Effect.provide(layer), Effect.flip)
        expect(error._tag).toBe("TimeoutError")
        if (error._tag === "TimeoutError") expect(error.phase).toBe("stream-idle")
        yield* waitUntil(() => server.closedSockets() === 1)
      }))

    it.live("an answer within the timeout is not affected by it, and the timer is cleared", () =>
      Effect.gen(function*() {
        const server = yield* testServer(() => ({
          json: {
            id: "chat-1",
            choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
          }
        }))
        const completion = yield* Chat.create(request).pipe(Effect.provide(client(server.url, "10 seconds")))
        expect(completion.choices[0]!.message.content).toBe("ok")
      }))
  })
})
