/** Shims for the conformance suite's client tests. */
import * as Cause from "effect/Cause"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Equal from "effect/Equal"
import * as Layer from "effect/Layer"
import type * as Bridge from "../../src/internal/stream/bridge.js"

/** A layer whose configuration is read from these environment variables. */
export const configFromEnv = (env: Record<string, string>): Layer.Layer<never> =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

/**
 * The fibers the client's own code starts per operation over a transport (named as in `transportLayers`):
 * at most `request` for a request; for a stream at least `streamAtLeast` and at most `stream`, and `perRead`
 * more for each network read. On this line a stream's count does not grow with its reads; the SDK's own
 * transport runs the attempt timeout and a stream's idle watch as timers, and reads a stream's body in the
 * consuming fiber.
 */
export const fiberBudget = (
  transport: string
): { readonly request: number; readonly streamAtLeast: number; readonly stream: number; readonly perRead: number } =>
  transport === "UndiciHttpClient"
    ? { request: 1, streamAtLeast: 1, stream: 1, perRead: 0 }
    : { request: 4, streamAtLeast: 1, stream: 8, perRead: 0 }

/** The current fiber's runtime, as `Chat.toAsyncIterable` and the other bridges out of Effect take it. */
export const currentRuntime = <R = never>(): Effect.Effect<Bridge.AnyRuntime<R>, never, R> => Effect.runtime<R>()

/**
 * The fibers a whole iteration of `Chat.toAsyncIterable` starts for `pulls` pulls of its stream: one run
 * per pull (the scope is closed outside the runtime).
 */
export const bridgeFibers = (pulls: number): number => pulls

/** A cause holding both causes, as of two fibers that failed side by side. */
export const combineCauses = <E, E2>(left: Cause.Cause<E>, right: Cause.Cause<E2>): Cause.Cause<E | E2> =>
  Cause.parallel(left, right)

/** The exit code Effect's teardown gives a program that was interrupted. */
export const interruptedExitCode = 0

/** Whether two values are equal as Effect compares them (`Equal.equals`: by value for data and errors). */
export const equals: (self: unknown, that: unknown) => boolean = Equal.equals
