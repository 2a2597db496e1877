/**
 * The Effect 3 line's adapter for the conformance suite (`packages/conformance`): the suite imports Effect,
 * `@effect/vitest`, the HTTP and platform modules only from here (as `@studio-effect/line`), never by its own
 * location, since the workspace holds both Effect majors. What differs between the majors is a shim of the
 * same name in each line's adapter; everything else is re-exported as it is.
 */
import { it as vitestIt, layer as vitestLayer } from "@effect/vitest"
import type * as Vitest from "@effect/vitest"
import type * as Duration from "effect/Duration"
import type * as Layer from "effect/Layer"

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

/** `@effect/vitest`'s methods whose `it.effect` gives each test a `Scope`, as it does on Effect 4. */
export type ScopedMethods<R> = Vitest.API & Omit<Vitest.Vitest.MethodsNonLive<R>, "effect"> & {
  readonly effect: Vitest.Vitest.MethodsNonLive<R>["scoped"]
}

/** `@effect/vitest`'s `it`, whose `it.effect` and `it.live` give each test a `Scope` (`it.scoped`, `it.scopedLive`). */
export const it = new Proxy(vitestIt, {
  get: (target, key) => key === "effect" ? target.scoped : key === "live" ? target.scopedLive : Reflect.get(target, key)
}) as unknown as ScopedMethods<never> & { readonly live: Vitest.Vitest.Methods["scopedLive"] }

const scoped = <R>(methods: Vitest.Vitest.MethodsNonLive<R>): ScopedMethods<R> =>
  new Proxy(methods, {
    get: (target, key) => key === "effect" ? target.scoped : Reflect.get(target, key)
  }) as unknown as ScopedMethods<R>

/** `@effect/vitest`'s `layer`, whose `it` scopes its tests as `it` above does. */
export const layer = <R, E>(layer_: Layer.Layer<R, E>, options?: { readonly timeout?: Duration.DurationInput }) =>
(
  ...args: [name: string, f: (it: ScopedMethods<R>) => void] | [f: (it: ScopedMethods<R>) => void]
): void => {
  const run = vitestLayer(layer_, options)
  if (args.length === 1) {
    const [f] = args
    return run((methods) => f(scoped(methods)))
  }
  const [name, f] = args
  return run(name, (methods) => f(scoped(methods)))
}
