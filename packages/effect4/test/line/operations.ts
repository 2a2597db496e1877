/** Shims for the conformance suite's operations tests. */
import * as Arbitrary from "effect/Arbitrary"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import type * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as fc from "fast-check"
import { StudioError } from "../../src/StudioError.js"
import type { Outcome } from "./effect.js"

/**
 * Values of a schema's encoded form (what the service sends), as a fast-check arbitrary: 500 samples drawn
 * with `seed` (Effect 4's arbitraries run on its own fast-check).
 */
export const encodedArbitrary = <S extends Schema.Top>(schema: S, seed: string): fc.Arbitrary<S["Encoded"]> =>
  fc.constantFrom(
    ...Effect.runSync(Arbitrary.sampleEffect(Arbitrary.schema(Schema.toEncoded(schema)), { count: 500, seed }))
  )

/** A decoding's result as the line's SDK returns it (`Result`), as an `Outcome`. */
export const toOutcome = <A, E>(result: Result.Result<A, E>): Outcome<A, E> => result

/** The size of each chunk a stream emits downstream, one number per chunk. */
export const chunkSizes = <A, E, R>(self: Stream.Stream<A, E, R>): Stream.Stream<number, E, R> =>
  Stream.mapArray(self, (chunk) => [chunk.length] as const)

/** The file system of Node (`@effect/platform-node`'s `NodeFileSystem`), for uploads from a path. */
export * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"

/** A layer whose config provider reads only these entries (name, value). */
export const configLayer = (entries: ReadonlyArray<readonly [string, string]>): Layer.Layer<never> =>
  ConfigProvider.layer(ConfigProvider.fromUnknown(Object.fromEntries(entries)))

/** A secret read from the config by name. */
export const redactedConfig = (name: string): Config.Config<Redacted.Redacted<string>> => Config.Redacted(name)

/** A string read from the config by name. */
export const stringConfig = (name: string): Config.Config<string> => Config.String(name)

/** The tag of every kind of `StudioError`, as its schema union lists them. */
export const errorKinds: ReadonlyArray<string> = StudioError.members.map((member) => member.fields._tag.schema.literal)

/** A client response to `request` with this status and JSON body, its body there at once (no promise to await). */
export const jsonResponse = (
  request: HttpClientRequest.HttpClientRequest,
  status: number,
  json: unknown
): HttpClientResponse.HttpClientResponse =>
  HttpServerResponse.toClientResponse(
    HttpServerResponse.text(JSON.stringify(json), { status, contentType: "application/json" }),
    { request }
  )

/** A schedule that goes on while both go on, waiting the longer of their delays. */
export const scheduleBoth = <O1, I1, E1, R1, O2, I2, E2, R2>(
  self: Schedule.Schedule<O1, I1, E1, R1>,
  that: Schedule.Schedule<O2, I2, E2, R2>
) => Schedule.max([self, that])

/** A schedule that runs `f` on each of its inputs, now typed `I`. */
export const tapInput =
  <I>(f: (input: I) => Effect.Effect<unknown>) =>
  <O, E, R>(self: Schedule.Schedule<O, unknown, E, R>): Schedule.Schedule<O, I, E, R> =>
    self.pipe(Schedule.setInputType<I>(), Schedule.tap(({ input }) => f(input)))
