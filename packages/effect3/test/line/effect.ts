/**
 * The Effect part of the line's adapter (`@studio-effect/line/effect`): its Effect, HTTP and platform modules
 * and the shims where the majors differ, without the test runner, for the suite's programs that also run
 * alone (the soak).
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpBody from "@effect/platform/HttpBody"
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { fileURLToPath } from "node:url"
import { UndiciHttpClient } from "../../src/undici/index.js"

export * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
export * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
export * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
export * as FetchHttpClient from "@effect/platform/FetchHttpClient"
export * as HttpBody from "@effect/platform/HttpBody"
export * as HttpClient from "@effect/platform/HttpClient"
export * as HttpClientRequest from "@effect/platform/HttpClientRequest"
export * as HttpClientResponse from "@effect/platform/HttpClientResponse"
export * as HttpServer from "@effect/platform/HttpServer"
export * as HttpServerRequest from "@effect/platform/HttpServerRequest"
export * as HttpServerResponse from "@effect/platform/HttpServerResponse"
export * as Cause from "effect/Cause"
export * as Clock from "effect/Clock"
export * as Console from "effect/Console"
export * as Context from "effect/Context"
export * as Deferred from "effect/Deferred"
export * as Duration from "effect/Duration"
export * as Effect from "effect/Effect"
export * as Exit from "effect/Exit"
export * as Fiber from "effect/Fiber"
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
export * as TestClock from "effect/TestClock"
export * as Tracer from "effect/Tracer"

export * from "./fiberCount.js"

/** Which line runs the suite. */
export const line = "effect3" as const

/** The line's package folder (`packages/effect3`), for tests that run its command, build or pack it. */
export const packageDir = fileURLToPath(new URL("../..", import.meta.url))

/** A fiber that runs `self` as a child of the current one. */
export const fork = Effect.fork

/** What an effect may end with, as a value, shaped as Effect 4's `Result`. */
export type Outcome<A, E> =
  | { readonly _tag: "Success"; readonly success: A }
  | { readonly _tag: "Failure"; readonly failure: E }
export const isSuccess = <A, E>(self: Outcome<A, E>): self is Extract<Outcome<A, E>, { _tag: "Success" }> =>
  self._tag === "Success"
export const isFailure = <A, E>(self: Outcome<A, E>): self is Extract<Outcome<A, E>, { _tag: "Failure" }> =>
  self._tag === "Failure"

/** An `Either` as an `Outcome`. */
export const fromEither = <A, E>(either: Either.Either<A, E>): Outcome<A, E> =>
  Either.isRight(either) ? { _tag: "Success", success: either.right } : { _tag: "Failure", failure: either.left }

/** Runs `self`, its failure as a value. */
export const outcome = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<Outcome<A, E>, never, R> =>
  Effect.map(Effect.either(self), fromEither)

/** A stream's elements and its failure as values. */
export const streamOutcomes = <A, E, R>(self: Stream.Stream<A, E, R>): Stream.Stream<Outcome<A, E>, never, R> =>
  Stream.map(Stream.either(self), fromEither)

/** Decodes `input` with `schema`, every issue reported, as an `Outcome`. */
export const decodeOutcome =
  <S extends Schema.Schema.Any>(schema: S) => (input: unknown): Outcome<Schema.Schema.Type<S>, unknown> =>
    fromEither(Schema.decodeUnknownEither(schema as any)(input, { errors: "all" })) as Outcome<
      Schema.Schema.Type<S>,
      unknown
    >

/** Every element of a stream, as an array. */
export const collect = <A, E, R>(self: Stream.Stream<A, E, R>): Effect.Effect<Array<A>, E, R> =>
  Effect.map(Stream.runCollect(self), Chunk.toArray)

/** Folds a stream from `initial`. */
export const fold = <S, A>(initial: S, f: (s: S, a: A) => S) => <E, R>(self: Stream.Stream<A, E, R>) =>
  Stream.runFold(self, initial, f)

/** A stream that runs `effect` for each element, forever. */
export const repeatEffect = Stream.repeatEffect

/** A fiber, running or done. */
export type RuntimeFiber<A, E> = Fiber.RuntimeFiber<A, E>

/** Whether a fiber has ended, without waiting. */
export const isDone = (fiber: Fiber.RuntimeFiber<unknown, unknown>): boolean => fiber.unsafePoll() !== null

/** A fiber's exit if it has ended. */
export const poll = <A, E>(fiber: Fiber.RuntimeFiber<A, E>): Exit.Exit<A, E> | undefined =>
  fiber.unsafePoll() ?? undefined

/** The typed failures of a cause. */
export const failures = <E>(cause: Cause.Cause<E>): Array<E> => [...Cause.failures(cause)]

/** Whether a cause holds a defect. */
export const hasDie = (cause: Cause.Cause<unknown>): boolean => Cause.isDie(cause)

/** Whether a cause holds an interruption. */
export const hasInterrupt = (cause: Cause.Cause<unknown>): boolean => Cause.isInterrupted(cause)

/** A duration as the line's `Duration` functions take it. */
export type DurationInput = Duration.DurationInput

/** A duration as a person reads it (`1s 500ms`). */
export const formatDuration = (input: DurationInput): string => Duration.format(input)

/** Dies with an `Error` of this message. */
export const dieMessage = (message: string): Effect.Effect<never> => Effect.dieMessage(message)

/** An effect completed from a callback (`Effect.async`, Effect 4's `Effect.callback`). */
export const callback = Effect.async

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
export const jsonBody = (body: unknown): HttpBody.HttpBody => HttpBody.unsafeJson(body)

/** A failure of the platform's `HttpClient`: of the request or of its response, and why (`Transport`, `Decode`, ...). */
export const httpClientFailure = (
  error: HttpClientError.HttpClientError
): { readonly of: "request" | "response"; readonly reason: string } => ({
  of: error._tag === "RequestError" ? "request" : "response",
  reason: error.reason
})

/** On this line the tests keep Node's own dispatcher for `fetch`, as they always have. */
export const fetchOverUndiciAgent = (): void => {}

/** A request with a JSON body (which cannot fail for the values tests send). */
export const bodyJson = HttpClientRequest.bodyUnsafeJson

/** A reader of Effect's clock (the `TestClock` in tests), in milliseconds. */
export const clockMillis: Effect.Effect<() => number> = Effect.clockWith((clock) =>
  Effect.succeed(() => clock.unsafeCurrentTimeMillis())
)

/** Fails with `onTimeout()` when `self` takes longer than `duration`. */
export const timeoutFail =
  <E2>(duration: DurationInput, onTimeout: () => E2) => <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.timeoutFail(self, { duration, onTimeout })
