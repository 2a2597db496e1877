/**
 * Running a stored assistant (Beta): the assistant named by `STUDIO_ASSISTANT_ID`, or one created for this
 * example and deleted at the end. The call overrides the assistant's requirements for this run only, and
 * asks for the scores and their metadata.
 *
 *   npx tsx examples/assistant-run.ts
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect } from "effect"
import { Assistants, StudioError } from "studio-effect"
import { StudioLive, target } from "./layer.js"

/** The assistant to run: the given one, or a temporary one that is deleted when the program ends. */
const assistantId = Effect.suspend(() => {
  const given = process.env["STUDIO_ASSISTANT_ID"] ?? ""
  if (given !== "") return Effect.succeed(given)
  return Effect.acquireRelease(
    Assistants.create({
      name: "Trip planner (example)",
      description: "Plans short city trips.",
      system_prompt: "You plan short city trips. Answer with a day-by-day plan.",
      requirements: [{ name: "days", description: "The plan covers every day the user asks for." }],
      budget: "low"
    }),
    (assistant) => Effect.orDie(Assistants.delete(assistant.id))
  ).pipe(
    Effect.tap((assistant) => Console.log(`created assistant ${assistant.id} (${assistant.name})`)),
    Effect.map((assistant) => assistant.id)
  )
})

const program = Effect.gen(function*() {
  yield* Console.log(`Assistant run against ${target}`)
  const id = yield* assistantId
  const run = yield* Assistants.runAndPoll(id, {
    input: [{ role: "user", content: "Plan two days in Lisbon." }],
    // overrides the stored requirements for this call; name, prompt and budget still come from the assistant
    requirements: [
      { name: "days", description: "The plan has a section for each of the two days.", is_mandatory: true },
      { name: "food", description: "Each day suggests a place to eat." }
    ],
    include: ["requirements_result", "requirements_result.metadata"]
  })
  yield* Console.log(`run ${run.id}: ${run.status}`)
  yield* Console.log(typeof run.result === "string" ? run.result : JSON.stringify(run.result, null, 2))
  for (const requirement of run.requirements_result?.requirements ?? []) {
    yield* Console.log(`  ${requirement.name}: ${requirement.score}`)
  }
})

NodeRuntime.runMain(program.pipe(Effect.scoped, Effect.provide(StudioLive)), StudioError.reportInOneLine)
