/**
 * An orchestration run with requirements: create it, poll it until it is done, and print the result
 * with each requirement's score.
 *
 *   npx tsx examples/maestro-run.ts
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect } from "effect"
import { Maestro, StudioError } from "studio-effect"
import { StudioLive, target } from "./layer.js"
import { pollEvery2To5Seconds } from "./pollSchedule.js"

const program = Effect.gen(function*() {
  yield* Console.log(`Maestro run against ${target}`)
  const run = yield* Maestro.createAndPoll(
    {
      input: "Write a short product description for a reusable water bottle.",
      system_prompt: "You write clear, friendly marketing copy.",
      requirements: [
        { name: "length", description: "The description is at most 60 words long.", is_mandatory: true },
        { name: "benefit", description: "It names at least one environmental benefit." },
        { name: "tone", description: "The tone is friendly and upbeat." }
      ],
      budget: "medium",
      include: ["requirements_result", "data_sources"]
    },
    {
      // poll every 2 s at first, then less often, never more than 5 s apart; give up after 5 minutes
      schedule: pollEvery2To5Seconds,
      deadline: "5 minutes"
    }
  )
  yield* Console.log(`run ${run.id}: ${run.status}`)
  yield* Console.log(`result:\n${typeof run.result === "string" ? run.result : JSON.stringify(run.result, null, 2)}`)
  const scores = run.requirements_result
  if (scores != null) {
    for (const requirement of scores.requirements) {
      yield* Console.log(
        `  ${requirement.name}: ${requirement.score}${requirement.reason ? ` (${requirement.reason})` : ""}`
      )
    }
    yield* Console.log(`overall score: ${scores.score ?? "-"}`)
  }
})

NodeRuntime.runMain(
  program.pipe(
    Effect.catchTags({
      RunFailed: (error) => Console.error(`the run failed: ${error.reason}`),
      PollTimeout: (error) => Console.error(`still ${error.lastRun?.status ?? "unknown"} at the deadline`)
    }),
    Effect.provide(StudioLive)
  ),
  StudioError.reportInOneLine
)
