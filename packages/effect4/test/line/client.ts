/** Shims for the conformance suite's client tests. */
import * as Cause from "effect/Cause"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Equal from "effect/Equal"
import type * as Layer from "effect/Layer"
import type * as Bridge from "../../src/internal/stream/bridge.js"

/** A layer whose configuration is read from these environment variables. */
export const configFromEnv = (env: Record<string, string>): Layer.Layer<never> =>
  ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))

/**
 * The fibers the client's own code starts per operation over a transport (named as in `transportLayers`):
 * at most `request` for a request; for a stream at least `streamAtLeast` and at most `stream`, and `perRead`
 * more for each network read. On this line, over the platform's transports: a request's attempt and the
 * watchdog of attempt deadlines; a stream's the same, the idle watchdog, the read after `[DONE]` and its time
 * bound, and one per network read, so that the watchdog can interrupt it. Over `studio-effect/undici` none:
 * the attempt timeout and a stream's idle watch are timers, a stream's body is read in the consuming fiber,
 * and what follows its `[DONE]` in the background.
 */
export const fiberBudget = (
  transport: string
): { readonly request: number; readonly streamAtLeast: number; readonly stream: number; readonly perRead: number } =>
  transport === "UndiciHttpClient"
    ? { request: 0, streamAtLeast: 0, stream: 0, perRead: 0 }
    : { request: 2, streamAtLeast: 3, stream: 6, perRead: 1 }

/** The current fiber's services, as `Chat.toAsyncIterable` and the other bridges out of Effect take them. */
export const currentRuntime = <R = never>(): Effect.Effect<Bridge.AnyRuntime<R>, never, R> => Effect.context<R>()

/**
 * The fibers a whole iteration of `Chat.toAsyncIterable` starts for `pulls` pulls of its stream: each pull
 * runs in a fiber of its own that the caller's promise awaits in another, and one run closes the scope.
 */
export const bridgeFibers = (pulls: number): number => 2 * pulls + 1

/** A cause holding both causes, as of two fibers that failed side by side. */
export const combineCauses = <E, E2>(left: Cause.Cause<E>, right: Cause.Cause<E2>): Cause.Cause<E | E2> =>
  Cause.combine(left, right)

/** The exit code Effect's teardown gives a program that was interrupted. */
export const interruptedExitCode = 130

/** Whether two values are equal as Effect compares them (`Equal.equals`: by value for data and errors). */
export const equals: (self: unknown, that: unknown) => boolean = Equal.equals
