/**
 * This SDK consumed from outside Effect: `for await` over `Chat.toAsyncIterable(Chat.textDeltas(...))`,
 * with a `ManagedRuntime` of the client over `NodeHttpClient.layerUndici`.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import * as Chat from "../../src/Chat.js"
import * as StudioClient from "../../src/StudioClient.js"
import { apiKey, chatRequest } from "../fixtures.js"
import { type BenchClient, pool } from "./BenchClient.js"

const runtimes = new Map<string, ManagedRuntime.ManagedRuntime<StudioClient.StudioClient, unknown>>()
const runtimeFor = (origin: string) => {
  let runtime = runtimes.get(origin)
  if (runtime === undefined) {
    runtime = ManagedRuntime.make(
      StudioClient.layer({ apiKey: Redacted.make(apiKey), baseUrl: origin, maxRetries: 2 }).pipe(
        Layer.provide(NodeHttpClient.layerUndici)
      )
    )
    runtimes.set(origin, runtime)
  }
  return runtime
}

export const client: BenchClient = {
  requests: (target, count, concurrency, onContent) =>
    pool(count, concurrency, async () => {
      const completion = await runtimeFor(target.origin).runPromise(Chat.create(chatRequest))
      onContent(completion.choices[0]!.message.content!)
    }),
  streams: (target, count, concurrency, onToken) =>
    pool(count, concurrency, async () => {
      const runtime = runtimeFor(target.origin)
      for await (const text of Chat.toAsyncIterable(Chat.textDeltas(Chat.stream(chatRequest)), runtime)) {
        onToken(text)
      }
    }),
  close: async () => {
    for (const runtime of runtimes.values()) await runtime.dispose()
  }
}
