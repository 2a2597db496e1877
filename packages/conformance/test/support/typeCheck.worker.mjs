/**
 * The compiler's side of `typeCheck.ts`, run in a worker thread. It builds one program of `roots` with
 * `options` (`sources` holds files that exist only in memory) and answers each root's type errors, as the
 * compiler prints them and each as its line and the text it points at, and, with `types`, the type of each
 * variable the first root declares, with the `_tag`s of its first type argument.
 */
import { resolve } from "node:path"
import { parentPort, workerData } from "node:worker_threads"
import ts from "typescript"

const { directory, options, roots, sources, types: withTypes } = workerData

const host = ts.createCompilerHost(options)
const getSourceFile = host.getSourceFile
host.getSourceFile = (fileName, languageVersion, ...rest) => {
  const source = sources[resolve(fileName)]
  return source === undefined
    ? getSourceFile.call(host, fileName, languageVersion, ...rest)
    : ts.createSourceFile(fileName, source, languageVersion, true)
}
const fileExists = host.fileExists
host.fileExists = (fileName) => resolve(fileName) in sources || fileExists.call(host, fileName)

const program = ts.createProgram(roots, options, host)
const checker = program.getTypeChecker()
const format = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => directory, getNewLine: () => "\n" }

const files = roots.map((root) => {
  const source = program.getSourceFile(root)
  const found = ts.getPreEmitDiagnostics(program, source)
  return [root, {
    text: ts.formatDiagnostics(found, format),
    errors: found.map(({ length = 0, start = 0 }) => ({
      line: source.getLineAndCharacterOfPosition(start).line + 1,
      at: source.text.slice(start, start + length)
    }))
  }]
})

const named = new Map()
const visit = (node) => {
  if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) named.set(node.name.text, node.name)
  ts.forEachChild(node, visit)
}
if (withTypes) visit(program.getSourceFile(roots[0]))

/** The `_tag` of each member of a type's first type argument (an `Effect`'s success), sorted. */
const tagsOf = (type) => {
  const isReference = type.flags & ts.TypeFlags.Object && type.objectFlags & ts.ObjectFlags.Reference
  const argument = isReference ? checker.getTypeArguments(type)[0] : undefined
  if (argument === undefined) return []
  return (argument.isUnion() ? argument.types : [argument]).flatMap((member) => {
    const tag = checker.getPropertyOfType(member, "_tag")
    return tag === undefined ? [] : [checker.typeToString(checker.getTypeOfSymbol(tag)).replace(/"/g, "")]
  }).sort()
}

const types = [...named].map(([name, node]) => {
  const type = checker.getTypeAtLocation(node)
  return [name, { text: checker.typeToString(type), tags: tagsOf(type) }]
})

parentPort.postMessage({ files, types })
