/**
 * Every ```ts block of the guides (docs/*.md, held once at the repository's root for both lines) and of the
 * running line's README.md is a complete program: each is written out as its own module in the line's
 * package, type-checked with the line's strict compiler options (`studio-effect` mapped to the sources by the
 * tsconfig's `paths`, `effect` the line's own), and run as a user runs it: emitted as JavaScript and run with
 * plain `node`, importing the built package (dist/, built by the global setup; see support/runnable.ts). A
 * block either provides `Reference.layerClient()` itself or reads STUDIO_BASE_URL and STUDIO_API_KEY, which
 * point at a reference service served here on 127.0.0.1, port 0. A block that imports a test framework is a
 * test file: it is run by vitest, against the sources.
 *
 * The guides are written for the Effect 4 line; what differs on the Effect 3 line is marked where it occurs.
 * A block's fence says which line it is for:
 *
 * - ```ts           both lines. On the Effect 3 line its imports of the modules that line names otherwise
 *                   (`guideModules` of the line's adapter: `effect/http` is `@effect/platform`, `effect/ai`
 *                   is `@effect/ai`, `effect/testing` is `effect`) are read as that line names them; a guide
 *                   whose programs import one of them says so at its top.
 * - ```ts effect4   the Effect 4 line only, skipped by the Effect 3 line; its Effect 3 version follows it.
 * - ```ts effect3   the Effect 3 line only, skipped by the Effect 4 line; the sentence before it starts
 *                   "On Effect 3".
 * - ```ts fragment  not a program: skipped by both; the sentence before it says why it is a fragment.
 */
import {
  afterAll,
  aiFailureTag,
  beforeAll,
  describe,
  Effect,
  Exit,
  expect,
  guideModules,
  it,
  line,
  packageDir,
  Scope
} from "@studio-effect/line"
import { execFile } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { endpoints } from "studio-effect-core/wire/endpoints"
import * as Reference from "studio-effect/reference"
import ts from "typescript"
import { root as repositoryRoot } from "../../../scripts/guides.mjs"
import { expectOneLineFailure } from "./support/oneLineFailure.js"
import { packageFile } from "./support/packageFile.js"
import { emitRunnable, runNode } from "./support/runnable.js"
import { lineCompilerOptions, typeCheck } from "./support/typeCheck.js"

const samplesDir = join(packageDir, ".docs-samples")

/** What a fence's info string after `ts` may say. */
const marks = ["", "effect3", "effect4", "fragment"] as const
type Mark = typeof marks[number]

interface Block {
  /** The document, from the repository's root. */
  readonly source: string
  readonly line: number
  readonly code: string
  readonly mark: Mark
  /** The text before the fence, up to the previous blank line. */
  readonly lead: string
}

/** The guides, and the running line's README (its npm page). */
const guides = readdirSync(join(repositoryRoot, "docs")).filter((name) => name.endsWith(".md")).sort().map((
  name
) => `docs/${name}`)
const readme = `packages/${line}/README.md`
const documents = [readme, ...guides]
const read = (source: string) => readFileSync(join(repositoryRoot, source), "utf8")

const blocksOf = (source: string): ReadonlyArray<Block> => {
  const lines = read(source).split("\n")
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
        mark: fence[2]!.trim() as Mark,
        lead: lead.join(" ")
      })
    }
    i = end
  }
  return blocks
}

/** A shared block's imports as the running line names the modules. */
const onThisLine = (block: Block): string =>
  block.mark === ""
    ? block.code.replace(/(from |import\()"([^"]+)"/g, (all, keyword: string, module: string) =>
      module in guideModules ? `${keyword}"${guideModules[module]}"` : all)
    : block.code

const blocks = documents.flatMap(blocksOf)
/** The programs the running line runs: the shared ones and its own. */
const programs = blocks.filter((block) => block.mark === "" || block.mark === line)
const isTest = (block: Block) => /from "(@effect\/vitest|vitest)"/.test(block.code)
const fileOf = (block: Block) =>
  join(
    samplesDir,
    `${block.source.replace(/[/.]/g, "_")}_${block.line}${isTest(block) ? ".test" : ""}.ts`
  )
const nameOf = (block: Block) => `${block.source}:${block.line}`

/** The line's compiler options, with `studio-effect` mapped to the sources. */
const compilerOptions = (): ts.CompilerOptions => ({
  ...lineCompilerOptions(),
  moduleDetection: ts.ModuleDetectionKind.Force
})

/** vitest's aliases for the tsconfig's `paths`, for blocks that are test files. */
const aliases = (options: ts.CompilerOptions) =>
  Object.entries(options.paths ?? {}).map(([name, [target]]) => ({
    find: new RegExp(`^${name.replace(/[/.]/g, "\\$&")}$`),
    replacement: join(packageDir, target!)
  }))

const spawn = (command: string, args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      command,
      args,
      { cwd: packageDir, env: { ...process.env, ...env }, timeout: 90_000 },
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

const scope = Effect.runSync(Scope.make())
let env: Record<string, string> = {}
let diagnostics = new Map<string, string>()
/** The emitted JavaScript of each block that is not a test file. */
let runnable = new Map<string, string>()

beforeAll(async () => {
  rmSync(samplesDir, { recursive: true, force: true })
  mkdirSync(samplesDir, { recursive: true })
  for (const block of programs) writeFileSync(fileOf(block), onThisLine(block))
  const runs = programs.filter((block) => !isTest(block))
  const emitted = emitRunnable(
    samplesDir,
    runs.map((block) => ({ path: basename(fileOf(block)), source: onThisLine(block) }))
  )
  runnable = new Map(runs.map((block, i) => [nameOf(block), emitted[i]!]))
  const options = compilerOptions()
  // the samples' tests run beside the suite's, on a machine as loaded: they get the suite's time per test
  const test = { include: [".docs-samples/*.test.ts"], root: packageDir, testTimeout: 30_000 }
  writeFileSync(
    join(samplesDir, "vitest.config.mjs"),
    `export default ${
      JSON.stringify({ test }).slice(0, -1)
    }, ssr: { resolve: { conditions: ["@studio-effect/source"] } }, resolve: { conditions: ["@studio-effect/source"], alias: [${
      aliases(options).map(({ find, replacement }) => `{ find: ${find}, replacement: ${JSON.stringify(replacement)} }`)
        .join(", ")
    }] } }\n`
  )
  const checked = await typeCheck(programs.map(fileOf), { compilerOptions: options })
  diagnostics = new Map(programs.map((block) => [nameOf(block), checked.files.get(fileOf(block))!.text]))
  const server = await Effect.runPromise(
    Effect.provideService(Reference.listen({ port: 0, apiKeys: [acceptedKey] }), Scope.Scope, scope)
  )
  env = { STUDIO_BASE_URL: server.url, STUDIO_API_KEY: acceptedKey }
}, 300_000)

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(samplesDir, { recursive: true, force: true })
})

describe("docs samples", () => {
  it("each guide says at its top that it describes both lines, and the modules Effect 3 names otherwise", () => {
    for (const source of guides) {
      const top = read(source).split("\n\n").slice(0, 2).join("\n\n")
      expect(top, source).toMatch(/Effect 4 line/)
      expect(top, source).toMatch(/Effect 3 line/)
      const shared = blocksOf(source).filter((block) => block.mark === "")
      for (const [module, named] of Object.entries(guideModules)) {
        if (shared.some((block) => block.code.includes(`from "${module}"`))) {
          expect(top, `${source} imports ${module}`).toContain(`\`${module}\``)
          expect(top, `${source} imports ${module}`).toContain(`\`${named}\``)
        }
      }
    }
  })

  it("each fence says which line its block is for; an Effect 4 block has its Effect 3 version after it", () => {
    for (const [i, block] of blocks.entries()) {
      expect(marks, `${nameOf(block)}: its fence`).toContain(block.mark)
      if (block.mark === "effect3") expect(block.lead, nameOf(block)).toMatch(/On Effect 3/)
      if (block.mark === "effect4") expect(blocks[i + 1]?.mark, `${nameOf(block)}: what follows it`).toBe("effect3")
    }
  })

  it("README.md and docs/ have TypeScript blocks, and each fragment says why", () => {
    expect(programs.length).toBeGreaterThan(10)
    for (const block of blocks.filter((block) => block.mark === "fragment")) {
      expect(block.lead, `${nameOf(block)}: the sentence before a fragment says why`).toMatch(/fragment/i)
    }
  })

  it("the reference service's guide lists every route it serves", () => {
    const rows = read("docs/reference-service.md").split("\n").filter((row) => /^\| .*`(GET|POST)/.test(row))
    for (const endpoint of Object.values(endpoints)) {
      const listed = rows.some((row) =>
        row.includes(endpoint.method) &&
        (row.match(/\/studio\/v1\/[^\s`]*/g) ?? []).some((path) => path === endpoint.path)
      )
      expect(listed, `${endpoint.method} ${endpoint.path}`).toBe(true)
    }
  })

  describe.concurrent("each guide starts with a program that runs with no key", () => {
    for (const source of guides) {
      const first = programs.find((block) => block.source === source && !isTest(block))
      if (first === undefined) {
        it(`${source}: its first command uses the reference service`, () => {
          expect(read(source)).toMatch(/```sh\n[^`]*--reference/)
        })
        continue
      }
      it(nameOf(first), async () => {
        const { code, output } = await runNode(runnable.get(nameOf(first))!, {
          env: { STUDIO_API_KEY: "", STUDIO_BASE_URL: "", AI21_API_KEY: "", AI21_API_HOST: "" }
        })
        expect(code, output).toBe(0)
      }, 120_000)
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
