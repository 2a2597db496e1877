/**
 * Every example (and the demo) of the running line type-checks strictly against it and runs against the
 * embedded reference service: no key, no network. The examples are held once at the repository's root
 * (`examples/`), the Effect 3 line taking `examples/effect3/<name>` in place of `examples/<name>` where a
 * program differs there (scripts/guides.mjs). Each runs as a user runs it: emitted as JavaScript and run with
 * plain `node`, importing the built package (dist/, built by the global setup; see support/runnable.ts).
 * Given a key that a service refuses, each example run by Effect prints its `AuthError` as one line.
 */
import {
  afterAll,
  aiFailureTag,
  beforeAll,
  describe,
  Effect,
  Exit,
  it,
  line,
  packageDir,
  Scope
} from "@studio-effect/line"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Reference from "studio-effect/reference"
import { guideFiles } from "../../../../scripts/guides.mjs"
import { expectOneLineFailure } from "../support/oneLineFailure.js"
import { emitRunnable, runNode } from "../support/runnable.js"
import { lineCompilerOptions, typeCheck } from "../support/typeCheck.js"

/** The line's examples: each module's name (`chat.ts`) and source. */
const sources = guideFiles(line).filter(({ path }) => path.startsWith("examples/")).map(({ path, source }) => ({
  name: path.slice("examples/".length),
  source: readFileSync(source, "utf8")
}))
/** The modules the examples share (`layer.ts`, imported as `./layer.js`) are not programs of their own. */
const shared = new Set(
  sources.flatMap(({ source }) => [...source.matchAll(/from "\.\/([\w-]+)\.js"/g)].map((match) => `${match[1]}.ts`))
)
const examples = sources.filter(({ name }) => !shared.has(name)).map(({ name }) => name)
const emittedDir = join(packageDir, ".runnable", "examples")
/** The examples run by Effect (`Effect.runPromise`, `NodeRuntime.runMain`), not by a server of their own. */
const runByEffect = sources.filter(({ name, source }) =>
  examples.includes(name) && /^(Effect\.runPromise|NodeRuntime\.runMain)\(/m.test(source)
).map(({ name }) => name)
const refusedKey = "sk-examples-refused-2c9d"
const scope = Effect.runSync(Scope.make())
/** A service that accepts one key only, for the examples given another. */
let refusing: Record<string, string> = {}
/** Each module's type errors, formatted ("" for none). */
let diagnostics = new Map<string, string>()

beforeAll(async () => {
  const server = await Effect.runPromise(
    Effect.provideService(Reference.listen({ port: 0, apiKeys: ["examples-key"] }), Scope.Scope, scope)
  )
  refusing = { STUDIO_API_KEY: refusedKey, STUDIO_BASE_URL: server.url }
  rmSync(emittedDir, { recursive: true, force: true })
  // every module, layer.ts too: the examples import it as ./layer.js
  emitRunnable(emittedDir, sources.map(({ name, source }) => ({ path: name, source })))
  // the sources beside their JavaScript, type-checked in the line's package
  for (const { name, source } of sources) writeFileSync(join(emittedDir, name), source)
  const roots = sources.map(({ name }) => join(emittedDir, name))
  const checked = await typeCheck(roots, { compilerOptions: lineCompilerOptions() })
  diagnostics = new Map(sources.map(({ name }) => [name, checked.files.get(join(emittedDir, name))!.text]))
}, 300_000)

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(emittedDir, { recursive: true, force: true })
})

describe.concurrent("examples type-check and run against the reference service", () => {
  it("the modules the examples share type-check", ({ expect }) => {
    expect(shared.size).toBeGreaterThan(0)
    for (const name of shared) expect(diagnostics.get(name), name).toBe("")
  })
  for (const file of examples) {
    it(file, async ({ expect }) => {
      expect(diagnostics.get(file), "type errors").toBe("")
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
