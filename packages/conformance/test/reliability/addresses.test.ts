/**
 * Addresses and the key, as a hostile server or a careless configuration would have them: URLs in messages
 * are shown without userinfo, query values or fragment; the transports that send no fragment (the line's
 * `fragmentFreeTransports`: on Effect 3 `studio-effect/undici` and fetch) do not; a key that is not printable
 * ASCII is refused before anything is sent, the same on every transport; the SSE forwarder for browsers does
 * not tell them the service's address. Over a real socket on 127.0.0.1.
 */
import {
  Context,
  describe,
  Effect,
  expect,
  fragmentFreeTransports,
  HttpClient,
  HttpClientRequest,
  it,
  Layer,
  ManagedRuntime,
  Redacted
} from "@studio-effect/line"
import * as fc from "fast-check"
import { Chat, StudioClient } from "studio-effect"
import { chatRequest, clientLayer, failureOf, showError, transportNames, transports } from "./harness.js"
import { hostileServer } from "./hostile.js"

const secret = "SECRET-7f1e"

/** Base URLs that are refused, each with the secret somewhere a URL can hide one. */
const refusedBaseUrls = fc.constantFrom(
  `https://me:${secret}@api.example.com/v1`,
  `https://api.example.com/?api_key=${secret}`,
  `https://api.example.com/#${secret}`,
  `https://me:${secret}@api.example.com/studio?token=${secret}#${secret}`,
  `http://me:${secret}@example.com/?api_key=${secret}`,
  `ftp://me:${secret}@example.com/`,
  `me:${secret}@api.example.com?api_key=${secret}`,
  `//${secret}@api.example.com`
)

describe("URLs in messages", () => {
  it.effect("property: a refused baseUrl is quoted without its userinfo, query values or fragment", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(refusedBaseUrls, async (baseUrl) => {
          const layer = StudioClient.layer({ apiKey: Redacted.make("sk-test"), baseUrl }).pipe(
            Layer.provide(transports.fetch)
          )
          const exit = await Effect.runPromiseExit(Effect.provide(Chat.create(chatRequest), layer))
          const error = failureOf(exit)
          expect(error._tag).toBe("ValidationError")
          expect(error.message).toContain("baseUrl")
          expect(showError(error)).not.toContain(secret)
        })
      )
    ))

  it.live("a NotFound, a redirect and a dropped connection name the address without query values", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* hostileServer((request, response) => {
        if (request.url!.includes("/chat/")) {
          response.writeHead(302, { location: `https://elsewhere.example/x?token=${secret}#${secret}` })
          return void response.end()
        }
        if (request.url!.includes("/runs/")) {
          response.writeHead(404, { "content-type": "application/json" })
          return void response.end(JSON.stringify({ detail: "Not Found" }))
        }
        response.socket?.destroy()
      })
      // middleware of the user's that adds a token to every address
      const layer = clientLayer(server.url, "fetch", {
        maxRetries: 0,
        transformClient: HttpClient.mapRequest(HttpClientRequest.appendUrl(`?api_key=${secret}`))
      })
      const { Assistants, Maestro } = yield* Effect.promise(() => import("studio-effect"))
      const errors = [
        failureOf(yield* Effect.exit(Effect.provide(Chat.create(chatRequest), layer))),
        failureOf(yield* Effect.exit(Effect.provide(Maestro.retrieve("run-1"), layer))),
        failureOf(yield* Effect.exit(Effect.provide(Assistants.retrieve("asst-1"), layer)))
      ]
      expect(errors.map((error) => error._tag)).toEqual(["ApiError", "NotFound", "TransportError"])
      expect(errors[0]!.message).toContain("https://elsewhere.example/x?token=…")
      expect(errors[1]!.message).toContain("/studio/v1/maestro/runs/run-1")
      // the transport's error names the address as sent, the middleware's token in it
      expect(errors[2]!.message).toMatch(/\/studio\/v1\/assistants\/asst-1\/?\?api_key=… failed/)
      for (const error of errors) expect(error.message).not.toContain(secret)
    })))
})

describe("fragments", () => {
  for (const transport of fragmentFreeTransports) {
    it.live(`a URL's #fragment is not sent over ${transport}; the path and query are`, () =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* hostileServer((_, response) => {
          response.writeHead(200, { "content-type": "application/json" })
          response.end("{}")
        })
        const client = Context.get(yield* Layer.build(transports[transport]), HttpClient.HttpClient)
        yield* Effect.scoped(client.get(`${server.url}/studio/v1/x?q=1#${secret}`))
        yield* Effect.scoped(
          client.execute(HttpClientRequest.get(`${server.url}/studio/v1/y`).pipe(HttpClientRequest.setHash(secret)))
        )
        expect(server.requests.map((request) => request.url)).toEqual(["/studio/v1/x?q=1", "/studio/v1/y"])
      })))
  }
})

describe("the API key's characters", () => {
  for (const transport of transportNames) {
    it.live(`a key ending in a CR (or holding a LF, a space) is a ValidationError over ${transport}; nothing sent`, () =>
      Effect.scoped(Effect.gen(function*() {
        const server = yield* hostileServer((_, response) => {
          response.writeHead(500)
          response.end()
        })
        for (const key of [`sk-${secret}\r`, `sk-${secret}\n`, ` sk-${secret}`, `sk-\u00e9${secret}`]) {
          const layer = StudioClient.layer({ apiKey: Redacted.make(key), baseUrl: server.url }).pipe(
            Layer.provide(transports[transport])
          )
          const error = failureOf(yield* Effect.exit(Effect.provide(Chat.create(chatRequest), layer)))
          expect(error._tag).toBe("ValidationError")
          expect(error.message).toMatch(/apiKey: the API key holds .* a key is printable ASCII only/)
          expect(showError(error)).not.toContain(secret)
        }
        expect(server.requests).toEqual([])
      })))
  }
})

describe("the SSE forwarder for browsers", () => {
  it.live("the error event of a failed stream does not carry the service's address", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* hostileServer((_, response) => {
        response.writeHead(200, { "content-type": "text/event-stream" })
        response.write(`data: ${JSON.stringify({ id: "c-1", choices: [] })}\n\n`)
        response.socket?.destroy()
      })
      const runtime = ManagedRuntime.make(clientLayer(server.url, "fetch", { maxRetries: 0 }))
      yield* Effect.addFinalizer(() => Effect.promise(() => runtime.dispose()))
      const forwarded = yield* Effect.promise(() =>
        new Response(Chat.stream(chatRequest).pipe(Chat.toEventStream(runtime))).text()
      )
      expect(forwarded).toMatch(/event: error\ndata: \{"error":\{"type":"TransportError","message":"POST \/studio\/v1/)
      expect(forwarded).not.toContain(server.url)
      expect(forwarded).not.toContain("127.0.0.1")
    })))
})
