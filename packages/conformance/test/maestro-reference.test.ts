/**
 * Runs and assistants end to end against the in-memory reference service, whose runs advance on Effect's
 * clock: `TestClock` drives both the service and the polling.
 */
import { assert, describe, Effect, Fiber, fork, it, Schedule, TestClock } from "@studio-effect/line"
import { Assistants, Maestro } from "studio-effect"
import * as Reference from "studio-effect/reference"

const requirements = [
  { name: "short", description: "At most 80 words.", is_mandatory: true },
  { name: "tone", description: "Friendly." }
]

describe("against the reference service", () => {
  it.effect("createAndPoll returns the completed run with a score per requirement", () =>
    Effect.gen(function*() {
      const fiber = yield* Maestro.createAndPoll(
        { input: "Describe a lighthouse", requirements, budget: "medium", include: ["requirements_result"] },
        { schedule: Schedule.spaced("250 millis") }
      ).pipe(fork)
      yield* TestClock.adjust("10 seconds")
      const run = yield* Fiber.join(fiber)
      assert.strictEqual(run.status, "completed")
      assert.deepStrictEqual(run.requirements_result?.requirements.map((requirement) => requirement.name), [
        "short",
        "tone"
      ])
      assert.isTrue(run.requirements_result!.requirements.every((requirement) => typeof requirement.score === "number"))
    }).pipe(Effect.provide(Reference.layerClient())))

  it.effect("a run the service fails becomes RunFailed with its message", () =>
    Effect.gen(function*() {
      const fiber = yield* Maestro.createAndPoll({ input: "anything" }, { schedule: Schedule.spaced("100 millis") })
        .pipe(
          Effect.flip,
          fork
        )
      yield* TestClock.adjust("10 seconds")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "RunFailed")
      if (error._tag === "RunFailed") assert.strictEqual(error.reason, "scripted failure")
    }).pipe(Effect.provide(Reference.layerClient({ failRun: () => "scripted failure" }))))

  it.effect("a deadline shorter than the run becomes PollTimeout with the in-progress snapshot", () =>
    Effect.gen(function*() {
      const fiber = yield* Maestro.createAndPoll({ input: "slow", budget: "high" }, {
        schedule: Schedule.spaced("100 millis"),
        deadline: "1 second"
      }).pipe(Effect.flip, fork)
      yield* TestClock.adjust("2 seconds")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "PollTimeout")
      if (error._tag === "PollTimeout") assert.strictEqual(error.lastRun?.status, "in_progress")
    }).pipe(Effect.provide(Reference.layerClient({ runStepDuration: "1 second" }))))

  it.effect("retrieve of an unknown run is NotFound", () =>
    Effect.gen(function*() {
      const error = yield* Maestro.retrieve("no-such-run").pipe(Effect.flip)
      assert.strictEqual(error._tag, "NotFound")
    }).pipe(Effect.provide(Reference.layerClient())))

  it.effect("assistants: create, run with an override on both paths, update, list, delete", () =>
    Effect.gen(function*() {
      const assistant = yield* Assistants.create({
        name: "Writer",
        system_prompt: "You write short texts.",
        requirements: [{ name: "stored", description: "A stored requirement." }],
        budget: "low"
      })
      for (const path of ["run", "sample"] as const) {
        const fiber = yield* Assistants.runAndPoll(assistant.id, {
          input: [{ role: "user", content: "Write about tea" }],
          requirements: [{ name: "override", description: "At most 50 words." }],
          include: ["requirements_result", "requirements_result.metadata"]
        }, { path, schedule: Schedule.spaced("100 millis") }).pipe(fork)
        yield* TestClock.adjust("5 seconds")
        const run = yield* Fiber.join(fiber)
        assert.strictEqual(run.status, "completed")
        // the call's requirements replaced the stored ones for this run
        assert.deepStrictEqual(run.requirements_result?.requirements.map((requirement) => requirement.name), [
          "override"
        ])
      }
      const updated = yield* Assistants.update(assistant.id, { description: "Short texts" })
      assert.strictEqual(updated.description, "Short texts")
      assert.strictEqual(updated.name, "Writer")
      const listed = yield* Assistants.list()
      assert.deepStrictEqual(listed.results.map((item) => item.id), [assistant.id])
      const deleted = yield* Assistants.delete(assistant.id)
      assert.isTrue(deleted.deleted)
      const gone = yield* Assistants.retrieve(assistant.id).pipe(Effect.flip)
      assert.strictEqual(gone._tag, "NotFound")
      const unknown = yield* Assistants.run("no such/assistant", { input: [{ role: "user", content: "x" }] }).pipe(
        Effect.flip
      )
      assert.strictEqual(unknown._tag, "NotFound")
    }).pipe(Effect.provide(Reference.layerClient())))
})
