/**
 * What a user's editor shows: each operation's error type holds only the errors it can fail with (so
 * `catchTags` offers only those), and the main answers carry their names instead of expanded structs.
 * Checked with the TypeScript compiler on a small program, as an editor would; the same program checks that
 * each schema decodes to the core's wire type (`wire.test.ts`).
 */
import * as path from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "..")
const probePath = path.join(root, "test", "types-probe.ts")
const wirePath = path.join(root, "test", "wire.test.ts")

const probe = `
import { Effect, Stream } from "effect"
import { Assistants, Chat, Maestro } from "../src/index.js"

const request = { model: "fpmodel-mini", messages: [{ role: "user" as const, content: "Hi" }] }

export const yielded = Effect.gen(function*() {
  const completion = yield* Chat.create(request)
  const chunk = yield* Stream.runHead(Chat.stream(request))
  const run = yield* Maestro.create({ input: "Hi" })
  const assistant = yield* Assistants.retrieve("asst_1")
  return { completion, chunk, run, assistant }
})

export const createErrors = Effect.flip(Chat.create(request))
export const streamErrors = Effect.flip(Stream.runDrain(Chat.stream(request)))
export const retrieveErrors = Effect.flip(Maestro.retrieve("run-1"))
export const pollErrors = Effect.flip(Maestro.poll("run-1"))

export const impossible = Chat.create(request).pipe(Effect.catchTags({ RunFailed: () => Effect.void }))
export const possible = Chat.create(request).pipe(Effect.catchTags({ RateLimit: () => Effect.void }))
`

const compile = () => {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    }
  })!
  const host = ts.createCompilerHost(parsed.options)
  const getSourceFile = host.getSourceFile
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    path.resolve(fileName) === probePath
      ? ts.createSourceFile(fileName, probe, languageVersion, true)
      : getSourceFile.call(host, fileName, languageVersion, ...rest)
  const fileExists = host.fileExists
  host.fileExists = (fileName) => path.resolve(fileName) === probePath || fileExists.call(host, fileName)
  const program = ts.createProgram([probePath, wirePath], parsed.options, host)
  const source = program.getSourceFile(probePath)!
  const checker = program.getTypeChecker()
  const declarations = new Map<string, ts.Node>()
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) declarations.set(node.name.text, node.name)
    ts.forEachChild(node, visit)
  }
  visit(source)
  const typeOf = (name: string) => checker.typeToString(checker.getTypeAtLocation(declarations.get(name)!))
  /** The tags of the success type of an `Effect` (here, a flipped error type). */
  const tagsOf = (name: string) => {
    const effect = checker.getTypeAtLocation(declarations.get(name)!) as ts.TypeReference
    const success = checker.getTypeArguments(effect)[0]!
    const members = success.isUnion() ? success.types : [success]
    return members.map((member) =>
      checker.typeToString(checker.getTypeOfSymbol(checker.getPropertyOfType(member, "_tag")!)).replace(/"/g, "")
    ).sort()
  }
  const errors = ts.getPreEmitDiagnostics(program, source).map((diagnostic) => ({
    line: source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1,
    at: probe.slice(diagnostic.start ?? 0, (diagnostic.start ?? 0) + (diagnostic.length ?? 0))
  }))
  const wire = program.getSourceFile(wirePath)!
  const wireErrors = ts.getPreEmitDiagnostics(program, wire).map((diagnostic) =>
    `line ${wire.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}: ${
      ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")
    }`
  )
  return {
    typeOf,
    tagsOf,
    errors,
    wireErrors,
    lineOf: (text: string) => probe.split("\n").findIndex((l) => l.includes(text)) + 1
  }
}

const requestErrors = [
  "ApiError",
  "AuthError",
  "DecodeError",
  "NotFound",
  "RateLimit",
  "TimeoutError",
  "TransportError",
  "ValidationError"
]

describe("types as an editor shows them", () => {
  const result = compile()

  it("a yielded completion, chunk, run and assistant show their names", () => {
    expect(result.typeOf("completion")).toBe("ChatCompletion")
    expect(result.typeOf("chunk")).toBe("Option<ChatCompletionChunk>")
    expect(result.typeOf("run")).toBe("MaestroRun")
    expect(result.typeOf("assistant")).toBe("Assistant")
  })

  it("a single request fails only with the errors of a request; polling adds RunFailed and PollTimeout", () => {
    expect(result.tagsOf("createErrors")).toEqual(requestErrors)
    expect(result.tagsOf("streamErrors")).toEqual(requestErrors)
    expect(result.tagsOf("retrieveErrors")).toEqual(requestErrors)
    expect(result.tagsOf("pollErrors")).toEqual([...requestErrors, "PollTimeout", "RunFailed"].sort())
  })

  it("catchTags on Chat.create refuses an impossible case and takes a possible one", () => {
    const lines = result.errors.map((error) => error.line)
    expect(lines).toEqual([result.lineOf("impossible")])
    expect(result.errors[0]!.at).toBe("RunFailed")
  })

  it("each schema's decoded type and the core's wire type are assignable both ways", () => {
    expect(result.wireErrors).toEqual([])
  })
})
