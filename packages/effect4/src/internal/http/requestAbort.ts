/**
 * Ending a request from outside, for the attempt timeout without a fiber: the SDK's own transport
 * (`studio-effect/undici`) puts the abort of each request it sends into the `RequestAbort` it finds in the
 * context; the client arms a timer of the platform that calls it (`attemptTimeout.ts`). A client over that
 * transport also sends on it as it is: it follows no redirect and makes no span of its own, so the
 * platform's settings for both are not provided per request (`requestBuilder.ts`).
 *
 * @internal
 */
import * as Context from "effect/Context"

/** Where a transport puts the abort of the request it sends. */
export interface RequestAbortSlot {
  abort: (() => void) | undefined
}

/** @internal */
export class RequestAbort extends Context.Service<RequestAbort, RequestAbortSlot>()("studio-effect/RequestAbort") {}

/** @internal */
export const AbortableTypeId: unique symbol = Symbol.for("studio-effect/Abortable")

/** Whether a transport is the SDK's own: it fills `RequestAbort`, follows no redirect and makes no span. */
export const isAbortable = (transport: object): boolean => AbortableTypeId in transport
