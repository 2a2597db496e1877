import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const path = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url))

/**
 * The conformance suite (`packages/conformance`) imports this line through `@studio-effect/line` (its Effect,
 * `@effect/vitest`, HTTP and platform modules and shims, `test/line`; `@studio-effect/line/effect` without the
 * test runner) and `studio-effect` (its public entries).
 */
const alias = [
  { find: /^studio-effect$/, replacement: path("./src/index.ts") },
  { find: /^studio-effect\/([a-z]+)$/, replacement: path("./src/$1/index.ts") },
  { find: /^@studio-effect\/line$/, replacement: path("./test/line/index.ts") },
  { find: /^@studio-effect\/line\/effect$/, replacement: path("./test/line/effect.ts") },
  { find: /^@studio-effect\/line\/src\/(.*)$/, replacement: path("./src/$1") }
]

export default defineConfig({
  resolve: { conditions: ["@studio-effect/source"], alias },
  ssr: { resolve: { conditions: ["@studio-effect/source"] } },
  test: {
    dir: path(".."),
    include: ["effect4/test/**/*.test.ts", "conformance/test/**/*.test.ts"],
    globalSetup: ["test/support/build.ts", "../conformance/test/support/realClients.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // a file on each core: many files mostly wait on processes they spawn, or on timers
    maxWorkers: availableParallelism()
  }
})
