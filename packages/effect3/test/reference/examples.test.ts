/**
 * Every example (and the demo) runs against the embedded reference service: no key, no network. Each runs as
 * a user runs it: emitted as JavaScript and run with plain `node`, importing the built package (dist/, built
 * by the global setup; see support/runnable.ts). Given a key that a service refuses, each example run by
 * Effect prints its `AuthError` as one line.
 */
import { afterAll, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { expectOneLineFailure } from "../../../conformance/test/support/oneLineFailure.js"
import { emitRunnable, runNode } from "../../../conformance/test/support/runnable.js"
import * as Reference from "../../src/reference/index.js"

const root = fileURLToPath(new URL("../..", import.meta.url))
const sources = readdirSync(join(root, "examples")).filter((name) => name.endsWith(".ts"))
const examples = sources.filter((name) => name !== "layer.ts")
const emittedDir = join(root, ".runnable", "examples")
/** The examples run by Effect (`Effect.runPromise`, `NodeRuntime.runMain`), not by a server of their own. */
const runByEffect = examples.filter((name) =>
  /^(Effect\.runPromise|NodeRuntime\.runMain)\(/m.test(readFileSync(join(root, "examples", name), "utf8"))
)
const refusedKey = "sk-examples-refused-2c9d"
/** A program on the AI provider fails with the AI library's error for a refused key, holding the AuthError's message. */
const aiFailureTag = "UnknownError"
const scope = Effect.runSync(Scope.make())
/** A service that accepts one key only, for the examples given another. */
let refusing: Record<string, string> = {}

beforeAll(async () => {
  const server = await Effect.runPromise(Scope.extend(Reference.listen({ port: 0, apiKeys: ["examples-key"] }), scope))
  refusing = { STUDIO_API_KEY: refusedKey, STUDIO_BASE_URL: server.url }
  rmSync(emittedDir, { recursive: true, force: true })
  // every module, layer.ts too: the examples import it as ./layer.js
  emitRunnable(
    emittedDir,
    sources.map((name) => ({ path: name, source: readFileSync(join(root, "examples", name), "utf8") }))
  )
})

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(emittedDir, { recursive: true, force: true })
})

describe.concurrent("examples run against the reference service", () => {
  for (const file of examples) {
    it(file, async ({ expect }) => {
      const { code, output } = await runNode(join(emittedDir, file.replace(/\.ts$/, ".js")), {
        env: { STUDIO_API_KEY: "", STUDIO_BASE_URL: "" },
        timeout: 60_000
      })
      expect(code, output).toBe(0)
      expect(output).toMatch(/reference service/)
    }, 90_000)
  }
})

describe.concurrent("examples given a key the service refuses print their AuthError as one line on stderr", () => {
  it("most examples are run by Effect", ({ expect }) => {
    expect(runByEffect.length).toBeGreaterThan(examples.length / 2)
  })
  for (const file of runByEffect) {
    it(file, async () => {
      const ran = await runNode(join(emittedDir, file.replace(/\.ts$/, ".js")), { env: refusing, timeout: 60_000 })
      const tag = file === "effect-ai.ts" ? aiFailureTag : "AuthError"
      expectOneLineFailure(ran, { tag, says: "Check the API key", apiKey: refusedKey }, file)
    }, 90_000)
  }
})
