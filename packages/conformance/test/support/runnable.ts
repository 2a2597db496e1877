/**
 * TypeScript programs (the docs' samples, the examples) run as a user of the built package runs them: each
 * module is transpiled to JavaScript (`ts.transpileModule`, with the tsconfig's options, emitting ES modules)
 * into a directory of this package, next to a `node_modules/studio-effect` that links to the package itself.
 * So `studio-effect` and its subpaths resolve through the package's `exports` to dist/ (built by the global
 * setup, `build.ts`), every other import resolves as it does from dist/, and the programs run with plain
 * `node`, without a TypeScript loader. Type-checking them against the sources is the callers' part.
 */
import { packageDir } from "@studio-effect/line"
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import ts from "typescript"
import { lineCompilerOptions } from "./typeCheck.js"

const root = packageDir

/** A module of a program: its path in the directory (`chat.ts`, `./layer.js` imports `layer.ts`) and source. */
export interface Module {
  readonly path: string
  readonly source: string
}

let emitOptions: ts.CompilerOptions | undefined

/** The tsconfig's options, emitting ES modules (the package is `"type": "module"`). */
const compilerOptions = (): ts.CompilerOptions => {
  if (emitOptions !== undefined) return emitOptions
  // transpileModule sees no package.json: with NodeNext it would emit CommonJS
  emitOptions = {
    ...lineCompilerOptions(),
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    moduleDetection: ts.ModuleDetectionKind.Force,
    noEmit: false,
    sourceMap: false,
    inlineSourceMap: false,
    declaration: false
  }
  return emitOptions
}

/**
 * Writes `modules` as JavaScript into `dir` (each `name.ts` as `name.js`), next to `node_modules/studio-effect`
 * linked to the package; the path of each emitted file, in the order of `modules`.
 */
export const emitRunnable = (dir: string, modules: ReadonlyArray<Module>): ReadonlyArray<string> => {
  const link = join(dir, "node_modules", "studio-effect")
  if (!existsSync(link)) {
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(root, link, "dir")
  }
  return modules.map(({ path, source }) => {
    const { diagnostics, outputText } = ts.transpileModule(source, {
      compilerOptions: compilerOptions(),
      fileName: path,
      reportDiagnostics: true
    })
    if (diagnostics !== undefined && diagnostics.length > 0) {
      throw new Error(`${path}: ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, "\n")}`)
    }
    const file = join(dir, path.replace(/\.ts$/, ".js"))
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, outputText)
    return file
  })
}

/** What a program run with `runNode` did: its exit code, its stdout and stderr, and both (stdout then stderr). */
export interface Ran {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  readonly output: string
}

/** Runs an emitted program with plain `node` (this process's). */
export const runNode = (
  file: string,
  options: { readonly cwd?: string; readonly env?: Record<string, string>; readonly timeout?: number } = {}
) =>
  new Promise<Ran>((resolve) => {
    execFile(
      process.execPath,
      [file],
      { cwd: options.cwd ?? root, env: { ...process.env, ...options.env }, timeout: options.timeout ?? 90_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : 1,
          stdout,
          stderr,
          output: stdout + stderr
        })
    )
  })
