/**
 * `Library.upload(path)` reads a regular file as a stream, no further than `maxUploadSize` (a file over it is
 * refused from its size first), and refuses by its kind what has no size to check (a FIFO fed without end,
 * `/dev/zero`) and a directory: each a `ValidationError` that says why, with nothing read beyond the limit
 * and nothing sent.
 */
import { describe, Effect, expect, it, Layer, NodeFileSystem, outcome } from "@studio-effect/line"
import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Library, StudioError } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { tempDirectory } from "./support/tempDirectory.js"

const limit = 1024 * 1024

const uploaded = (path: string) =>
  outcome(Library.upload(path, { maxUploadSize: limit })).pipe(
    Effect.provide(Layer.merge(Reference.layerClient(), NodeFileSystem.layer))
  )

/** A `ValidationError` whose message says why; nothing was sent. */
const expectRefused = (result: { readonly _tag: string; readonly failure?: unknown }, why: RegExp) => {
  expect(result._tag).toBe("Failure")
  expect(result.failure).toBeInstanceOf(StudioError.ValidationError)
  expect(String((result.failure as Error).message)).toMatch(why)
}

describe("Library.upload(path) within maxUploadSize", () => {
  it.effect("a FIFO is refused by its kind, never opened", ({ onTestFinished }) =>
    Effect.gen(function*() {
      const fifo = join(tempDirectory("upload-fifo-", onTestFinished), "feed")
      execFileSync("mkfifo", [fifo])
      expectRefused(
        yield* uploaded(fifo),
        /feed is not a regular file \(FIFO\): upload a file, or pass its bytes as a Stream/
      )
    }))

  it.effect("/dev/zero is refused at once instead of read forever", () =>
    Effect.gen(function*() {
      expectRefused(yield* uploaded("/dev/zero"), /\/dev\/zero is not a regular file \(CharacterDevice\)/)
    }))

  it.effect("a regular file over the limit is refused from its size, and a directory by name", ({ onTestFinished }) =>
    Effect.gen(function*() {
      const dir = tempDirectory("upload-sizes-", onTestFinished)
      const big = join(dir, "big.txt")
      writeFileSync(big, new Uint8Array(limit + 1).fill(98))
      expectRefused(yield* uploaded(big), /larger than 1 MiB \(maxUploadSize\)/)
      expectRefused(yield* uploaded(dir), /is a directory: upload a file/)
    }))

  it.effect("a file within the limit is read and sent whole", ({ onTestFinished }) =>
    Effect.gen(function*() {
      const file = join(tempDirectory("upload-small-", onTestFinished), "notes.txt")
      writeFileSync(file, "Green tea is steeped at 80 degrees.")
      const result = yield* uploaded(file)
      expect(result._tag).toBe("Success")
    }))
})
