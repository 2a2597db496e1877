/**
 * The benchmark's fixtures (the repository's `bench/fixtures.ts`), where this package's tests import them.
 */
export * from "../../../bench/fixtures.js"
