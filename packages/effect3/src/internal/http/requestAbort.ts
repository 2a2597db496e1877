/**
 * Ending a request from outside, for the attempt timeout without a fiber: a transport that supports it
 * (`studio-effect/undici`) puts the abort of each request it sends into the `RequestAbort` it finds in the
 * context; the client arms a timer of the platform that calls it. Over the live clock this costs a timer
 * per attempt, where `Effect.timeoutFail` forks two fibers: 96 against 140 µs of CPU per `Chat.create` on
 * an in-memory transport (44 µs of the client's 70). Under any other clock (the `TestClock`) and over other
 * transports, the client uses `Effect.timeoutFail`.
 *
 * @internal
 */
import * as Context from "effect/Context"

/** Where a transport puts the abort of the request it sends. */
export interface RequestAbortSlot {
  abort: (() => void) | undefined
}

/** @internal */
export class RequestAbort extends Context.Tag("studio-effect/RequestAbort")<RequestAbort, RequestAbortSlot>() {}

/** @internal */
export const AbortableTypeId: unique symbol = Symbol.for("studio-effect/Abortable")

/** Whether a transport fills `RequestAbort`. */
export const isAbortable = (transport: object): boolean => AbortableTypeId in transport
