/**
 * A user's id is validated as well-formed text before it is encoded into a path: an id holding a lone
 * surrogate (which has no UTF-8 form, so `encodeURIComponent` throws on it) is a `ValidationError` from
 * every operation that takes one, at the call's run, never a throw or a defect, and nothing is sent. A
 * well-formed id, whatever it holds (`/`, `?`, `#`, `%`, emoji), arrives as one path segment.
 */
import { describe, Effect, expect, it, Layer, Stream } from "@studio-effect/line"
import * as fc from "fast-check"
import { Assistants, Maestro, type StudioClient, type StudioError } from "studio-effect"
import { isWellFormed } from "../../../core/test/fixtures/text.js"
import { clientLayer, failureOf, valueOf } from "../reliability/harness.js"
import { hostileServer } from "../reliability/hostile.js"

/** Every operation that puts a user's id into its path. */
const operations: ReadonlyArray<
  readonly [string, (id: string) => Effect.Effect<unknown, StudioError.StudioError, StudioClient.StudioClient>]
> = [
  ["Assistants.retrieve", (id) => Assistants.retrieve(id)],
  ["Assistants.delete", (id) => Assistants.delete(id)],
  ["Assistants.update", (id) => Assistants.update(id, { name: "renamed" })],
  ["Assistants.run", (id) => Assistants.run(id, { input: [{ role: "user", content: "Hi" }] })],
  ["Assistants.runAndPoll", (id) => Assistants.runAndPoll(id, { input: [{ role: "user", content: "Hi" }] })],
  ["Maestro.retrieve", (id) => Maestro.retrieve(id)],
  ["Maestro.poll", (id) => Maestro.poll(id)],
  ["Maestro.watch", (id) => Stream.runDrain(Maestro.watch(id))]
]

const lone = fc.constantFrom("\ud800", "\udbff", "\udc00", "\udfff", "\ud83d", "\ude00")

/** Ids with at least one lone surrogate, anywhere. */
const malformedId = fc.tuple(
  fc.string({ unit: "binary", maxLength: 8 }),
  lone,
  fc.string({ unit: "binary", maxLength: 8 })
)
  .map(([before, surrogate, after]) => `${before}${surrogate}${after}`)
  .filter((id) => !isWellFormed(id))

/** Well-formed ids other than the ones refused for what they resolve to (empty, `.`, `..`). */
const wellFormedId = fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 })
  .map((id) => `${id}/?#%😀`)

describe("ids in paths", () => {
  it.live("property: an id with a lone surrogate is a ValidationError from every operation; nothing is sent", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* hostileServer((_, response) => {
        response.writeHead(500)
        response.end()
      })
      const context = yield* Layer.build(clientLayer(server.url, "fetch", { maxRetries: 0 }))
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(malformedId, fc.constantFrom(...operations), async (id, [name, operation]) => {
            const exit = await Effect.runPromiseExit(Effect.provide(operation(id), context))
            const error = failureOf(exit)
            expect(error._tag, name).toBe("ValidationError")
            expect(error.message).toContain("must be well-formed text: it holds a lone surrogate")
            expect(error.message).toContain("nothing was sent")
          }),
          { numRuns: 200 }
        )
      )
      expect(server.requests).toEqual([])
    })))

  it.live("property: a well-formed id arrives as one path segment that decodes to it", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* hostileServer((_, response) => {
        response.writeHead(200, { "content-type": "application/json" })
        response.end(JSON.stringify({ id: "run-1", status: "completed" }))
      })
      const context = yield* Layer.build(clientLayer(server.url, "fetch", { maxRetries: 0 }))
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(wellFormedId, async (id) => {
            valueOf(await Effect.runPromiseExit(Effect.provide(Maestro.retrieve(id), context)))
            const path = server.requests.at(-1)!.url
            const segment = path.slice("/studio/v1/maestro/runs/".length)
            expect(segment).not.toMatch(/[/?#]/)
            expect(decodeURIComponent(segment)).toBe(id)
          }),
          { numRuns: 100 }
        )
      )
    })))
})
