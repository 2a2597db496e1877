/**
 * The Effect 4 floor: effect's own `HttpClient` (`effect/http`) with no SDK, as an Effect application would
 * call the service by hand. A request is a bare `execute` and `JSON.parse` of the body's text; a stream is
 * the body's bytes through the same SSE split the SDK uses (`SseParser`), one array of reads at a time
 * (`Stream.runForEachArray`), and `JSON.parse` of each event. The platform's defaults are kept (its own span
 * per request included): this is what the SDK's own cost is measured over.
 */
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Stream from "effect/Stream"
import { doneMarker, SseParser } from "studio-effect-core/sse/SseParser"
import { type BenchClient, chatPath } from "../../../../bench/clients/BenchClient.js"
import { apiKey, chatRequest } from "../../../../bench/fixtures.js"

const headers = { "authorization": `Bearer ${apiKey}` }
const plainBody = JSON.stringify(chatRequest)
const streamBody = JSON.stringify({ ...chatRequest, stream: true })

export const makeClient = (transport: Layer.Layer<HttpClient.HttpClient>): BenchClient => {
  const runtime = ManagedRuntime.make(transport)
  const range = (count: number) => Array.from({ length: count }, (_, i) => i)
  const post = (url: string, body: string) =>
    HttpClientRequest.post(url).pipe(
      HttpClientRequest.setHeaders(headers),
      HttpClientRequest.bodyText(body, "application/json")
    )
  return {
    requests: (target, count, concurrency, onContent) =>
      runtime.runPromise(Effect.gen(function*() {
        const client = yield* HttpClient.HttpClient
        const request = post(target.origin + chatPath, plainBody)
        yield* Effect.forEach(
          range(count),
          () =>
            Effect.flatMap(client.execute(request), (response) =>
              Effect.map(response.text, (text) => {
                if (response.status !== 200) throw new Error(`status ${response.status}`)
                onContent(JSON.parse(text).choices[0].message.content)
              })),
          { concurrency, discard: true }
        )
      })),
    streams: (target, count, concurrency, onToken) =>
      runtime.runPromise(Effect.gen(function*() {
        const client = yield* HttpClient.HttpClient
        const request = post(target.origin + chatPath, streamBody)
        yield* Effect.forEach(
          range(count),
          () =>
            Effect.flatMap(client.execute(request), (response) => {
              if (response.status !== 200) return Effect.die(new Error(`status ${response.status}`))
              const parser = new SseParser()
              let done = false
              return Effect.map(
                Stream.runForEachArray(response.stream, (reads) =>
                  Effect.sync(() => {
                    for (const bytes of reads) {
                      for (const data of parser.push(bytes)) {
                        if (done) break
                        if (data === doneMarker) {
                          done = true
                          break
                        }
                        const content = JSON.parse(data).choices?.[0]?.delta?.content
                        if (content) onToken(content)
                      }
                    }
                  })),
                () => {
                  if (!done) throw new Error("the stream ended before [DONE]")
                }
              )
            }),
          { concurrency, discard: true }
        )
      })),
    close: () => runtime.dispose()
  }
}
