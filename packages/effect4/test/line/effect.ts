/**
 * The Effect part of the line's adapter (`@studio-effect/line/effect`): its Effect, HTTP and platform modules
 * and the shims where the majors differ, without the test runner, for the suite's programs that also run
 * alone (the soak).
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpBody from "effect/http/HttpBody"
import type * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { fileURLToPath } from "node:url"
import { Agent, setGlobalDispatcher } from "undici"
import { UndiciHttpClient } from "../../src/undici/index.js"

export * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
export * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
export * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
export * as Cause from "effect/Cause"
export * as Clock from "effect/Clock"
export * as Console from "effect/Console"
export * as Context from "effect/Context"
export * as Deferred from "effect/Deferred"
export * as Duration from "effect/Duration"
export * as Effect from "effect/Effect"
export * as Exit from "effect/Exit"
export * as Fiber from "effect/Fiber"
export * as FetchHttpClient from "effect/http/FetchHttpClient"
export * as HttpBody from "effect/http/HttpBody"
export * as HttpClient from "effect/http/HttpClient"
export * as HttpClientRequest from "effect/http/HttpClientRequest"
export * as HttpClientResponse from "effect/http/HttpClientResponse"
export * as HttpServer from "effect/http/HttpServer"
export * as HttpServerRequest from "effect/http/HttpServerRequest"
export * as HttpServerResponse from "effect/http/HttpServerResponse"
export * as Layer from "effect/Layer"
export * as Logger from "effect/Logger"
export * as ManagedRuntime from "effect/ManagedRuntime"
export * as Option from "effect/Option"
export * as Queue from "effect/Queue"
export * as Redacted from "effect/Redacted"
export * as Ref from "effect/Ref"
export * as Schedule from "effect/Schedule"
export * as Schema from "effect/Schema"
export * as Scope from "effect/Scope"
export * as Stream from "effect/Stream"
export * as TestClock from "effect/testing/TestClock"
export * as Tracer from "effect/Tracer"

export * from "./fiberCount.js"

/** Which line runs the suite. */
export const line = "effect4" as const

/** The line's package folder (`packages/effect4`), for tests that run its command, build or pack it. */
export const packageDir = fileURLToPath(new URL("../..", import.meta.url))

/** A fiber that runs `self` as a child of the current one. */
export const fork = Effect.forkChild

/** What an effect may end with, as a value: Effect 4's `Result` (`Success` with `success`, `Failure` with `failure`). */
export type Outcome<A, E> = Result.Result<A, E>
export const isSuccess = Result.isSuccess
export const isFailure = Result.isFailure

/** Runs `self`, its failure as a value. */
export const outcome = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<Outcome<A, E>, never, R> =>
  Effect.result(self)

/** A stream's elements and its failure as values. */
export const streamOutcomes = <A, E, R>(self: Stream.Stream<A, E, R>): Stream.Stream<Outcome<A, E>, never, R> =>
  Stream.result(self)

/** Decodes `input` with `schema`, every issue reported, as an `Outcome`. */
export const decodeOutcome = <S extends Schema.Top>(schema: S) => (input: unknown): Outcome<S["Type"], unknown> =>
  Schema.decodeUnknownResult(schema as any)(input, { errors: "all" }) as Outcome<S["Type"], unknown>

/** Every element of a stream, as an array. */
export const collect = <A, E, R>(self: Stream.Stream<A, E, R>): Effect.Effect<Array<A>, E, R> => Stream.runCollect(self)

/** Folds a stream from `initial`. */
export const fold = <S, A>(initial: S, f: (s: S, a: A) => S) => <E, R>(self: Stream.Stream<A, E, R>) =>
  Stream.runFold(self, () => initial, f)

/** A stream that runs `effect` for each element, forever. */
export const repeatEffect = Stream.fromEffectRepeat

/** A fiber, running or done. */
export type RuntimeFiber<A, E> = Fiber.Fiber<A, E>

/** Whether a fiber has ended, without waiting. */
export const isDone = (fiber: Fiber.Fiber<unknown, unknown>): boolean => fiber.pollUnsafe() !== undefined

/** A fiber's exit if it has ended. */
export const poll = <A, E>(fiber: Fiber.Fiber<A, E>): Exit.Exit<A, E> | undefined => fiber.pollUnsafe()

/** The typed failures of a cause. */
export const failures = <E>(cause: Cause.Cause<E>): Array<E> =>
  cause.reasons.filter(Cause.isFailReason).map((reason) => reason.error)

/** Whether a cause holds a defect. */
export const hasDie = (cause: Cause.Cause<unknown>): boolean => Cause.hasDies(cause)

/** Whether a cause holds an interruption. */
export const hasInterrupt = (cause: Cause.Cause<unknown>): boolean => Cause.hasInterrupts(cause)

/** A duration as the line's `Duration` functions take it. */
export type DurationInput = Duration.Input

/** A duration as a person reads it (`1s 500ms`). */
export const formatDuration = (input: DurationInput): string => Duration.format(Duration.fromInputUnsafe(input))

/** Dies with an `Error` of this message. */
export const dieMessage = (message: string): Effect.Effect<never> => Effect.die(new Error(message))

/** An effect completed from a callback (`Effect.callback`, Effect 3's `Effect.async`). */
export const callback = Effect.callback

/** The transports the client is tested over, by name: the platform's two, and `studio-effect/undici`. */
export const transports = {
  fetch: FetchHttpClient.layer,
  undici: NodeHttpClient.layerUndici,
  "sdk-undici": UndiciHttpClient.layer
} as const

/** The same transports as rows of a table, named by their layer. */
export const transportLayers: ReadonlyArray<readonly [string, Layer.Layer<HttpClient.HttpClient>]> = [
  ["FetchHttpClient", FetchHttpClient.layer],
  ["NodeHttpClient.layerUndici", NodeHttpClient.layerUndici],
  ["UndiciHttpClient", UndiciHttpClient.layer]
]

/** `studio-effect/undici`'s `HttpClient` over undici (its module `UndiciHttpClient`: `make`, `layer`). */
export { UndiciHttpClient }

/** A request body of JSON (which cannot fail for the values tests send). */
export const jsonBody = (body: unknown): HttpBody.HttpBody => HttpBody.jsonUnsafe(body)

/** A failure of the platform's `HttpClient`: of the request or of its response, and why (`Transport`, `Decode`, ...). */
export const httpClientFailure = (
  error: HttpClientError.HttpClientError
): { readonly of: "request" | "response"; readonly reason: string } => ({
  // the reasons of a response's failure carry the response
  of: "response" in error.reason ? "response" : "request",
  reason: error.reason._tag.replace(/Error$/, "")
})

/**
 * `fetch` sends through undici's `Agent` (the `undici` package of `@effect/platform-node`), as its global
 * dispatcher. Measured on Node 22.23 with a plain `fetch` and an `AbortController`: the dispatcher bundled
 * with Node (undici 6.28) closes the socket of a request aborted in the middle of its body about 3 s after
 * the abort, whether the body was cancelled or not, where undici's `Agent` closes it at once. The client
 * aborts a body it gives up at once over both; the tests that check the socket is released see it close
 * with this dispatcher, within event-loop turns.
 */
export const fetchOverUndiciAgent = (): void => setGlobalDispatcher(new Agent())

/** A request with a JSON body (which cannot fail for the values tests send). */
export const bodyJson = HttpClientRequest.bodyJsonUnsafe

/** A reader of Effect's clock (the `TestClock` in tests), in milliseconds. */
export const clockMillis: Effect.Effect<() => number> = Effect.clockWith((clock) =>
  Effect.succeed(() => clock.currentTimeMillisUnsafe())
)

/** Fails with `onTimeout()` when `self` takes longer than `duration`. */
export const timeoutFail =
  <E2>(duration: DurationInput, onTimeout: () => E2) => <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.timeoutOrElse(self, { duration, orElse: () => Effect.fail(onTimeout()) })
