import { defineConfig } from "vitest/config"

/** The tests run the package and the core from their sources (the `@studio-effect/source` condition). */
export default defineConfig({
  resolve: { conditions: ["@studio-effect/source"] },
  ssr: { resolve: { conditions: ["@studio-effect/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks"
  }
})
