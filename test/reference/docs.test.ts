/**
 * The test example of docs/reference-service.md, as written there.
 */
import { expect, it } from "@effect/vitest"
import { Effect, Fiber, TestClock } from "effect"
import * as Maestro from "../../src/Maestro.js"
import * as Reference from "../../src/reference/index.js"

it.effect("my summariser keeps to its word limit", () =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(Maestro.createAndPoll({
      input: "Summarise the meeting",
      budget: "medium",
      requirements: [{ name: "short", description: "at most 20 words", is_mandatory: true }],
      include: ["requirements_result"]
    }))
    yield* TestClock.adjust("1 minute")
    const run = yield* Fiber.join(fiber)
    expect(run.requirements_result?.score).toBe(1)
  }).pipe(Effect.provide(Reference.layerClient())))
