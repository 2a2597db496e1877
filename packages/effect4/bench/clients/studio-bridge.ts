/**
 * This SDK consumed from outside Effect: `for await` over `Chat.toAsyncIterable(Chat.textDeltas(...))`,
 * with a `ManagedRuntime` of the client over its own transport, `UndiciHttpClient.layer`.
 */
import { type BenchClient, pool } from "../../../../bench/clients/BenchClient.js"
import { chatRequest } from "../../../../bench/fixtures.js"
import * as Chat from "../../src/Chat.js"
import { UndiciHttpClient } from "../../src/undici/index.js"
import { runtimes } from "./studio.js"

const { dispose, runtimeFor } = runtimes(UndiciHttpClient.layer)

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
  close: dispose
}
