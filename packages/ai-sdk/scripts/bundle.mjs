// The provider's runtime as one module: `dist/index.js` holds this package's sources and the core's rules it
// uses, with `@ai-sdk/provider` and `@ai-sdk/provider-utils` left as imports. Loading it as 29 separate modules
// cost 18 ms more on Node 24 (after `ai` is loaded: 25 ms against 7 ms for the single module, which is
// `@ai-sdk/openai-compatible`'s 6-7 ms), so the build bundles it, as the AI SDK's own providers are shipped.
// The declarations stay tsc's (`dist/*.d.ts`); they name the core's wire types, which is why
// `studio-effect-core` stays a dependency.
//
//   node scripts/bundle.mjs      (run by `npm run build` after tsc)
import { build } from "esbuild"
import { fileURLToPath } from "node:url"

const packageDir = fileURLToPath(new URL("..", import.meta.url))

await build({
  absWorkingDir: packageDir,
  entryPoints: ["src/index.ts"],
  outfile: "dist/index.js",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node22",
  sourcemap: true,
  external: ["@ai-sdk/provider", "@ai-sdk/provider-utils"],
  logLevel: "warning"
})
