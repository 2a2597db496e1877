/**
 * TypeScript programs type-checked with the compiler's API, as an editor would, in a worker thread: checking
 * programs that use Effect's types takes seconds to a minute, and the test's own thread must stay free to
 * answer its runner meanwhile. The compiler's side is `typeCheck.worker.mjs`.
 */
import { packageDir } from "@studio-effect/line"
import { join } from "node:path"
import { Worker } from "node:worker_threads"
import ts from "typescript"

/** A file's type errors: as the compiler prints them ("" for none), and each as its line and text. */
export interface FileErrors {
  readonly text: string
  readonly errors: ReadonlyArray<{ readonly line: number; readonly at: string }>
}

/** A variable's type as an editor shows it, and the `_tag`s of its first type argument (an `Effect`'s success). */
export interface DeclaredType {
  readonly text: string
  readonly tags: ReadonlyArray<string>
}

/** What a check found: each root's errors, and the types of the variables asked for. */
export interface Checked {
  readonly files: ReadonlyMap<string, FileErrors>
  readonly types: ReadonlyMap<string, DeclaredType>
}

/** The options of the line's `tsconfig.json`, with `noEmit`. */
export const lineCompilerOptions = (): ts.CompilerOptions => {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(packageDir, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    }
  })
  if (parsed === undefined) throw new Error("tsconfig.json could not be read")
  return { ...parsed.options, noEmit: true }
}

/**
 * Checks one program of `roots` (absolute paths); `sources` holds files that exist only in memory, by absolute
 * path. With `types`, the answer holds the type of each variable the first root declares.
 */
export const typeCheck = (
  roots: ReadonlyArray<string>,
  options: {
    readonly compilerOptions: ts.CompilerOptions
    readonly sources?: Readonly<Record<string, string>>
    readonly types?: boolean
  }
): Promise<Checked> =>
  new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./typeCheck.worker.mjs", import.meta.url), {
      workerData: {
        roots,
        options: options.compilerOptions,
        sources: options.sources ?? {},
        types: options.types ?? false,
        directory: packageDir
      }
    })
    worker.once("message", (answer: { files: Array<[string, FileErrors]>; types: Array<[string, DeclaredType]> }) =>
      resolve({ files: new Map(answer.files), types: new Map(answer.types) }))
    worker.once("error", reject)
    worker.once("exit", (code) =>
      reject(new Error(`the type-check's thread exited (${code}) without an answer`)))
  })

/**
 * A probe: a program held in memory (`source`, at `path`), checked beside `roots` with the line's options, as
 * an editor shows it: each variable's type, the `_tag`s an `Effect` variable succeeds with (a flipped error
 * type's), the probe's errors, and the line of its first line holding a text.
 */
export const checkProbe = async (path: string, source: string, roots: ReadonlyArray<string> = []) => {
  const checked = await typeCheck([path, ...roots], {
    compilerOptions: lineCompilerOptions(),
    sources: { [path]: source },
    types: true
  })
  return {
    checked,
    typeOf: (name: string) => checked.types.get(name)?.text,
    tagsOf: (name: string) => checked.types.get(name)?.tags,
    errors: checked.files.get(path)!.errors,
    lineOf: (text: string) => source.split("\n").findIndex((line) => line.includes(text)) + 1
  }
}
