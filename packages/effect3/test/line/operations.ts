/** Shims for the conformance suite's operations tests. */
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Arbitrary from "effect/Arbitrary"
import * as Chunk from "effect/Chunk"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import type * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type * as fc from "fast-check"
import { StudioError } from "../../src/StudioError.js"
import { fromEither, type Outcome } from "./effect.js"

/**
 * Values of a schema's encoded form (what the service sends), as a fast-check arbitrary; `seed` names the
 * sample on Effect 4, here fast-check's own seed draws them.
 */
export const encodedArbitrary = <A, I>(schema: Schema.Schema<A, I>, _seed: string): fc.Arbitrary<I> =>
  Arbitrary.make(Schema.encodedSchema(schema))

/** A decoding's result as the line's SDK returns it (`Either`), as an `Outcome`. */
export const toOutcome = <A, E>(result: Either.Either<A, E>): Outcome<A, E> => fromEither(result)

/** The size of each chunk a stream emits downstream, one number per chunk. */
export const chunkSizes = <A, E, R>(self: Stream.Stream<A, E, R>): Stream.Stream<number, E, R> =>
  Stream.mapChunks(self, (chunk) => Chunk.of(chunk.length))

/** The file system of Node (`@effect/platform-node`'s `NodeFileSystem`), for uploads from a path. */
export * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"

/** A layer whose config provider reads only these entries (name, value). */
export const configLayer = (entries: ReadonlyArray<readonly [string, string]>): Layer.Layer<never> =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map(entries)))

/** A secret read from the config by name. */
export const redactedConfig = (name: string): Config.Config<Redacted.Redacted<string>> => Config.redacted(name)

/** A string read from the config by name. */
export const stringConfig = (name: string): Config.Config<string> => Config.string(name)

/** The tag of every kind of `StudioError`, as its schema union lists them. */
export const errorKinds: ReadonlyArray<string> = StudioError.members.map((member) => member._tag)

/** A client response to `request` with this status and JSON body, its body there at once (no promise to await). */
export const jsonResponse = (
  request: HttpClientRequest.HttpClientRequest,
  status: number,
  json: unknown
): HttpClientResponse.HttpClientResponse =>
  HttpClientResponse.fromWeb(
    request,
    new Response(JSON.stringify(json), { status, headers: { "content-type": "application/json" } })
  )

/** A schedule that goes on while both go on, waiting the longer of their delays. */
export const scheduleBoth = <O1, I1, R1, O2, I2, R2>(
  self: Schedule.Schedule<O1, I1, R1>,
  that: Schedule.Schedule<O2, I2, R2>
) => Schedule.intersect(self, that)

/** A schedule that runs `f` on each of its inputs, now typed `I`. */
export const tapInput =
  <I>(f: (input: I) => Effect.Effect<unknown>) =>
  <O, R>(self: Schedule.Schedule<O, unknown, R>): Schedule.Schedule<O, I, R> => Schedule.tapInput(self, f)
