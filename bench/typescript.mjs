/**
 * How the bench's processes run TypeScript on Node.js 22.18 and later: Node's own type transform
 * (`--experimental-transform-types`, which removes the types and turns TypeScript's own syntax, such as a
 * constructor's parameter properties, into JavaScript, nothing more), with this hook to find `x.ts` where a
 * source imports `x.js`, as TypeScript's `NodeNext` resolution has it.
 *
 * Measured reason, not `tsx` (Node.js 24, 20 × 500 short streams, each in its own process): `tsx` compiles
 * with esbuild's `keepNames`, always on, which wraps every function a source makes in `__name`, a call that
 * defines its `name`. Built code (what users run) has none. It cost the SDK 13 µs of a short stream's 418 of
 * CPU and 4.5 of a request's 162, the bench's floor nothing: 368-373 µs of CPU a short stream under `tsx`,
 * 337-349 under Node's transform (the floor: 321-333, 313-314).
 */
import { existsSync } from "node:fs"
import { registerHooks } from "node:module"
import { fileURLToPath } from "node:url"

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (
      specifier.endsWith(".js") && (specifier.startsWith("./") || specifier.startsWith("../")) &&
      context.parentURL?.endsWith(".ts") && !existsSync(fileURLToPath(new URL(specifier, context.parentURL)))
    ) {
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context)
    }
    return nextResolve(specifier, context)
  }
})
