/**
 * The Effect 4 line's adapter for the conformance suite (`packages/conformance`): the suite imports Effect,
 * `@effect/vitest`, the HTTP and platform modules only from here (as `@studio-effect/line`), never by its own
 * location, since the workspace holds both Effect majors. What differs between the majors is a shim of the
 * same name in each line's adapter; everything else is re-exported as it is.
 */
import { it as vitestIt, layer as vitestLayer } from "@effect/vitest"

export { afterAll, afterEach, assert, beforeAll, beforeEach, describe, expect, vi } from "@effect/vitest"
export * from "./effect.js"

// The line's own support, and each area's shims
export * from "./client.js"
export * from "./docs.js"
export * from "./interop.js"
export * from "./observe.js"
export * from "./operations.js"
export * from "./reference.js"
export * from "./reliability.js"
export * from "./validation.js"
export * from "./workflow.js"

/**
 * `@effect/vitest`'s `it`. On this line `it.effect` and `it.live` already give each test a `Scope`; the Effect 3
 * adapter maps them to its `it.scoped` and `it.scopedLive`, so a shared test writes `it.effect` either way.
 */
export const it = vitestIt

/** `@effect/vitest`'s `layer`, whose `it` scopes its tests as `it` above does. */
export const layer = vitestLayer
