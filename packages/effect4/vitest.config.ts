import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

export default defineConfig({
  resolve: { conditions: ["@studio-effect/source"] },
  ssr: { resolve: { conditions: ["@studio-effect/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/build.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // a file on each core: many files mostly wait on processes they spawn, or on timers
    maxWorkers: availableParallelism()
  }
})
