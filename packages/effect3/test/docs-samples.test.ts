/**
 * Every ```ts block of README.md and docs/*.md is a complete program: each is written out as its own module,
 * type-checked with the project's strict compiler options (`studio-effect` mapped to the sources by the
 * tsconfig's `paths`), and run as a user runs it: emitted as JavaScript and run with plain `node`, importing
 * the built package (dist/, built by the global setup; see support/runnable.ts). A block either provides
 * `Reference.layerClient()` itself or reads STUDIO_BASE_URL and STUDIO_API_KEY, which point at a reference
 * service served here on 127.0.0.1, port 0. A block that imports a test framework is a test file: it is run
 * by vitest, against the sources. Blocks fenced ```ts fragment are skipped; the sentence before one says why
 * it is a fragment.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { execFile } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { expectOneLineFailure } from "../../conformance/test/support/oneLineFailure.js"
import { packageFile } from "../../conformance/test/support/packageFile.js"
import { emitRunnable, runNode } from "../../conformance/test/support/runnable.js"
import * as Reference from "../src/reference/index.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const samplesDir = join(root, ".docs-samples")

interface Block {
  readonly source: string
  readonly line: number
  readonly code: string
  readonly fragment: boolean
  /** The text before the fence, up to the previous blank line. */
  readonly lead: string
}

const documents = [
  "README.md",
  ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).sort().map((
    name
  ) => `docs/${name}`)
]

const blocksOf = (source: string): ReadonlyArray<Block> => {
  const lines = readFileSync(join(root, source), "utf8").split("\n")
  const blocks: Array<Block> = []
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\S*)(.*)$/.exec(lines[i]!)
    if (fence === null) continue
    const end = lines.findIndex((line, j) => j > i && line.startsWith("```"))
    if (fence[1] === "ts" || fence[1] === "typescript") {
      let start = i - 1
      while (start >= 0 && lines[start]!.trim() === "") start--
      const lead: Array<string> = []
      while (start >= 0 && lines[start]!.trim() !== "" && !lines[start]!.startsWith("```")) {
        lead.unshift(lines[start--]!)
      }
      blocks.push({
        source,
        line: i + 1,
        code: lines.slice(i + 1, end).join("\n") + "\n",
        fragment: fence[2]!.trim() === "fragment",
        lead: lead.join(" ")
      })
    }
    i = end
  }
  return blocks
}

const blocks = documents.flatMap(blocksOf)
const programs = blocks.filter((block) => !block.fragment)
const isTest = (block: Block) => /from "(@effect\/vitest|vitest)"/.test(block.code)
const fileOf = (block: Block) =>
  join(
    samplesDir,
    `${block.source.replace(/[/.]/g, "_")}_${block.line}${isTest(block) ? ".test" : ""}.ts`
  )
const nameOf = (block: Block) => `${block.source}:${block.line}`

/** The project's compiler options, with `studio-effect` mapped to the sources. */
const compilerOptions = (): ts.CompilerOptions => {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    }
  })
  if (parsed === undefined) throw new Error("tsconfig.json could not be read")
  return { ...parsed.options, noEmit: true, moduleDetection: ts.ModuleDetectionKind.Force }
}

/** vitest's aliases for the tsconfig's `paths`, for blocks that are test files. */
const aliases = (options: ts.CompilerOptions) =>
  Object.entries(options.paths ?? {}).map(([name, [target]]) => ({
    find: new RegExp(`^${name.replace(/[/.]/g, "\\$&")}$`),
    replacement: join(root, target!)
  }))

const spawn = (command: string, args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      command,
      args,
      { cwd: root, env: { ...process.env, ...env }, timeout: 90_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : 1,
          output: stdout + stderr
        })
    )
  })

/** The key the service started here accepts, and one it refuses (401). */
const acceptedKey = "docs-samples-key"
const refusedKey = "sk-docs-samples-refused-7f3a"

/**
 * A program run by Effect (ending with `Effect.runPromise` or `NodeRuntime.runMain`) that reads its key from the
 * environment (`StudioClient.layerConfig`) and leaves an `AuthError` to the runtime.
 */
const leavesAuthErrorToTheRuntime = (block: Block): boolean =>
  /^(Effect\.runPromise|NodeRuntime\.runMain)\(/m.test(block.code) && /StudioClient\.layerConfig\(/.test(block.code) &&
  !/"AuthError"/.test(block.code)

/** A program on the AI provider fails with the AI library's error for a refused key, holding the AuthError's message. */
const aiFailureTag = "UnknownError"
const scope = Effect.runSync(Scope.make())
let env: Record<string, string> = {}
let diagnostics = new Map<string, string>()
/** The emitted JavaScript of each block that is not a test file. */
let runnable = new Map<string, string>()

beforeAll(async () => {
  rmSync(samplesDir, { recursive: true, force: true })
  mkdirSync(samplesDir, { recursive: true })
  for (const block of programs) writeFileSync(fileOf(block), block.code)
  const runs = programs.filter((block) => !isTest(block))
  const emitted = emitRunnable(samplesDir, runs.map((block) => ({ path: basename(fileOf(block)), source: block.code })))
  runnable = new Map(runs.map((block, i) => [nameOf(block), emitted[i]!]))
  const options = compilerOptions()
  writeFileSync(
    join(samplesDir, "vitest.config.mjs"),
    `export default ${
      JSON.stringify({ test: { include: [".docs-samples/*.test.ts"], root } }).slice(0, -1)
    }, ssr: { resolve: { conditions: ["@studio-effect/source"] } }, resolve: { conditions: ["@studio-effect/source"], alias: [${
      aliases(options).map(({ find, replacement }) => `{ find: ${find}, replacement: ${JSON.stringify(replacement)} }`)
        .join(", ")
    }] } }\n`
  )
  const program = ts.createProgram(programs.map(fileOf), options)
  diagnostics = new Map(programs.map((block) => {
    const file = program.getSourceFile(fileOf(block))!
    const found = ts.getPreEmitDiagnostics(program, file)
    return [
      nameOf(block),
      ts.formatDiagnostics(found, {
        getCanonicalFileName: (name) => name,
        getCurrentDirectory: () => root,
        getNewLine: () => "\n"
      })
    ]
  }))
  const server = await Effect.runPromise(Scope.extend(Reference.listen({ port: 0, apiKeys: [acceptedKey] }), scope))
  env = { STUDIO_BASE_URL: server.url, STUDIO_API_KEY: acceptedKey }
}, 120_000)

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(samplesDir, { recursive: true, force: true })
})

describe("docs samples", () => {
  it("README.md and docs/ have TypeScript blocks, and each fragment says why", () => {
    expect(programs.length).toBeGreaterThan(10)
    for (const block of blocks.filter((block) => block.fragment)) {
      expect(block.lead, `${nameOf(block)}: the sentence before a fragment says why`).toMatch(/fragment/i)
    }
  })

  describe.concurrent("each block type-checks strictly and runs", () => {
    for (const block of programs) {
      it(nameOf(block), async () => {
        expect(diagnostics.get(nameOf(block)), "type errors").toBe("")
        const { code, output } = isTest(block)
          ? await spawn(
            process.execPath,
            [
              packageFile("vitest", "vitest.mjs"),
              "run",
              "--config",
              join(samplesDir, "vitest.config.mjs"),
              fileOf(block)
            ],
            env
          )
          : await runNode(runnable.get(nameOf(block))!, { env })
        expect(code, output).toBe(0)
      }, 120_000)
    }
  })

  describe.concurrent("each program given a key the service refuses prints its AuthError as one line on stderr", () => {
    const failing = programs.filter((block) => !isTest(block) && leavesAuthErrorToTheRuntime(block))
    it("the README's first program is one of them", () => {
      expect(failing.map(nameOf)).toContain(nameOf(programs[0]!))
    })
    for (const block of failing) {
      it(nameOf(block), async () => {
        const ran = await runNode(runnable.get(nameOf(block))!, { env: { ...env, STUDIO_API_KEY: refusedKey } })
        const tag = /LanguageModel\./.test(block.code) ? aiFailureTag : "AuthError"
        expectOneLineFailure(ran, { tag, says: "Check the API key", apiKey: refusedKey }, nameOf(block))
      }, 120_000)
    }
  })
})
