/**
 * What a user's editor shows: each operation's error type holds only the errors it can fail with (so
 * `catchTags` offers only those), and the main answers carry their names instead of expanded structs.
 * Checked with the TypeScript compiler on a small program, as an editor would; the same program checks that
 * each schema decodes to the core's wire type (`wire.test.ts`).
 */
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { checkProbe } from "../../conformance/test/support/typeCheck.js"

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

/** The probe as the compiler checks it (in a worker thread: see `typeCheck.ts`). */
const { checked, errors, lineOf, tagsOf, typeOf } = await checkProbe(probePath, probe, [wirePath])

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
  it("a yielded completion, chunk, run and assistant show their names", () => {
    expect(typeOf("completion")).toBe("ChatCompletion")
    expect(typeOf("chunk")).toBe("Option<ChatCompletionChunk>")
    expect(typeOf("run")).toBe("MaestroRun")
    expect(typeOf("assistant")).toBe("Assistant")
  })

  it("a single request fails only with the errors of a request; polling adds RunFailed and PollTimeout", () => {
    expect(tagsOf("createErrors")).toEqual(requestErrors)
    expect(tagsOf("streamErrors")).toEqual(requestErrors)
    expect(tagsOf("retrieveErrors")).toEqual(requestErrors)
    expect(tagsOf("pollErrors")).toEqual([...requestErrors, "PollTimeout", "RunFailed"].sort())
  })

  it("catchTags on Chat.create refuses an impossible case and takes a possible one", () => {
    const lines = errors.map((error) => error.line)
    expect(lines).toEqual([lineOf("impossible")])
    expect(errors[0]!.at).toBe("RunFailed")
  })

  it("each schema's decoded type and the core's wire type are assignable both ways", () => {
    expect(checked.files.get(wirePath)!.text).toBe("")
  })
})
