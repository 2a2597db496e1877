/** Shims for the conformance suite's docs tests. */

/**
 * The modules the guides' programs import under their Effect 4 names that this line names otherwise (each
 * guide says so at its top): the HTTP modules are `@effect/platform`'s, the AI ones `@effect/ai`'s, and
 * `TestClock` is `effect`'s own.
 */
export const guideModules: Readonly<Record<string, string>> = {
  "effect/http": "@effect/platform",
  "effect/ai": "@effect/ai",
  "effect/testing": "effect",
  "effect/workflow": "@effect/workflow"
}

/** The tag a program on the AI provider fails with for a refused key (the AI library's error, holding the AuthError's message). */
export const aiFailureTag = "UnknownError"
