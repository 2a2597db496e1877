/**
 * This SDK, written as an Effect application would use it: one runtime with the client layer, and each
 * scenario a single effect (`Effect.forEach` with `concurrency`; `Stream.runForEachChunk` over `Chat.textDeltas`,
 * which takes the texts of each network read together, as `docs/streaming.md` advises for long streams).
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { acceptChatRequest } from "studio-effect-core/validate/chatRequest"
import { acceptRunRequest } from "studio-effect-core/validate/runRequest"
import type { BenchClient } from "../../../../bench/clients/BenchClient.js"
import { apiKey, chatRequest } from "../../../../bench/fixtures.js"
import * as Chat from "../../src/Chat.js"
import { ChatRequest } from "../../src/ChatSchema.js"
import { requestValidator } from "../../src/internal/schema/validate.js"
import { RunRequest } from "../../src/MaestroSchema.js"
import * as StudioClient from "../../src/StudioClient.js"

/** One runtime of the client per server origin, over `transport`; `dispose` closes them all. */
export const runtimes = (transport: Layer.Layer<HttpClient.HttpClient>) => {
  const byOrigin = new Map<string, ManagedRuntime.ManagedRuntime<StudioClient.StudioClient, unknown>>()
  return {
    runtimeFor: (origin: string) => {
      let runtime = byOrigin.get(origin)
      if (runtime === undefined) {
        runtime = ManagedRuntime.make(
          StudioClient.layer({ apiKey: Redacted.make(apiKey), baseUrl: origin, maxRetries: 2 }).pipe(
            Layer.provide(transport)
          )
        )
        byOrigin.set(origin, runtime)
      }
      return runtime
    },
    dispose: async () => {
      for (const runtime of byOrigin.values()) await runtime.dispose()
    }
  }
}

/**
 * The checks `Chat.create` and `Maestro.create` run on a request before sending it: a usual request by its
 * fast path, any other by the schema.
 */
const checks = {
  chat: requestValidator(ChatRequest, acceptChatRequest),
  run: requestValidator(RunRequest, acceptRunRequest)
}

/** Checks a request as `Chat.create` (`chat`) or `Maestro.create` (`run`) does. */
export const validate = (operation: "chat" | "run", input: unknown): void => {
  const exit = operation === "chat"
    ? Effect.runSyncExit(checks.chat("chat", input))
    : Effect.runSyncExit(checks.run("maestro.create", input))
  if (exit._tag !== "Success") throw new Error(`the typical ${operation} request is invalid`)
}

export const makeClient = (transport: Layer.Layer<HttpClient.HttpClient>): BenchClient => {
  const { dispose, runtimeFor } = runtimes(transport)
  const range = (count: number) => Array.from({ length: count }, (_, i) => i)
  return {
    requests: (target, count, concurrency, onContent) =>
      runtimeFor(target.origin).runPromise(
        Effect.forEach(
          range(count),
          () =>
            Effect.map(Chat.create(chatRequest), (completion) => onContent(completion.choices[0]!.message.content!)),
          { concurrency, discard: true }
        )
      ),
    streams: (target, count, concurrency, onToken) =>
      runtimeFor(target.origin).runPromise(
        Effect.forEach(
          range(count),
          () =>
            Stream.runForEachChunk(Chat.textDeltas(Chat.stream(chatRequest)), (texts) =>
              Effect.sync(() => {
                for (const text of texts) onToken(text)
              })),
          { concurrency, discard: true }
        )
      ),
    validate,
    close: dispose
  }
}
