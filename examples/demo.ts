/**
 * A tour of every operation: a chat completion, a streamed chat printed as it arrives, a run with
 * requirements showing its progress and scores, and an assistant created, run and deleted.
 *
 * Without `STUDIO_API_KEY` it runs against the reference service embedded in memory (no account, no
 * network); with it, against the real service (`STUDIO_BASE_URL` optional).
 *
 *   npm run demo
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Option, Schedule, Stream } from "effect"
import { Assistants, Chat, Maestro, StudioError } from "studio-effect"
import { studioLayer, target, usingRealService } from "./layer.js"

// The embedded service streams and runs at a visible pace, so the tour shows progress as it happens.
const StudioLive = studioLayer({ streamEventDelay: "25 millis", runStepDuration: "300 millis" })

const model = "fpmodel-mini"

const section = (title: string) => Console.log(`\n=== ${title} ===`)

const write = (text: string) => Effect.sync(() => process.stdout.write(text))

const chat = Effect.gen(function*() {
  yield* section("Chat completion")
  const reply = yield* Chat.create({
    model,
    messages: [
      { role: "system", content: "You are brief." },
      { role: "user", content: "What does the reference service do with my questions?" }
    ],
    max_tokens: 120
  })
  yield* Console.log(reply.choices[0]?.message.content ?? "")
  yield* Console.log(
    `(finish: ${
      reply.choices[0]?.finish_reason
    }, tokens: ${reply.usage.prompt_tokens} in, ${reply.usage.completion_tokens} out)`
  )
})

const streamedChat = Effect.gen(function*() {
  yield* section("Streamed chat, printed as it arrives")
  yield* Chat.stream({ model, messages: [{ role: "user", content: "Stream a short answer, token by token." }] }).pipe(
    Chat.textDeltas,
    Stream.runForEach(write)
  )
  yield* write("\n")
})

const run = Effect.gen(function*() {
  yield* section("A run with requirements")
  const created = yield* Maestro.create({
    input: "Give three tips for a first hike. Start early, bring water, tell someone your route.",
    requirements: [
      { name: "list", description: "Answer as a numbered list of 3 items", is_mandatory: true },
      { name: "brief", description: "At most 40 words" },
      { name: "tone", description: "Sound encouraging" }
    ],
    budget: "medium",
    include: ["requirements_result"]
  })
  yield* Console.log(`run ${created.id} created: ${created.status}`)
  const started = Date.now()
  // the embedded service finishes in a second, so it is polled often; the real service at the default pace
  const pollOptions = usingRealService ? {} : { schedule: Schedule.spaced("250 millis") }
  const done = yield* Maestro.watch(created, pollOptions).pipe(
    Stream.tap((snapshot) => Console.log(`  ${((Date.now() - started) / 1000).toFixed(1)} s: ${snapshot.status}`)),
    Stream.runLast,
    // a watch ends with the terminal snapshot: there is always a last one
    Effect.map(Option.getOrThrow)
  )
  yield* Console.log(typeof done.result === "string" ? done.result : JSON.stringify(done.result))
  const scores = done.requirements_result
  yield* Console.log(`overall score: ${scores?.score} (${scores?.finish_reason})`)
  for (const requirement of scores?.requirements ?? []) {
    yield* Console.log(
      `  ${requirement.name}${
        requirement.is_mandatory ? " (mandatory)" : ""
      }: ${requirement.score} - ${requirement.reason}`
    )
  }
})

const assistant = Effect.gen(function*() {
  yield* section("An assistant, created and run")
  const created = yield* Effect.acquireRelease(
    Assistants.create({
      name: "Travel helper (demo)",
      description: "Answers travel questions briefly.",
      requirements: [{ name: "brief", description: "At most 30 words" }],
      budget: "low",
      response_language: "spanish"
    }),
    (stored) => Effect.orDie(Assistants.delete(stored.id))
  )
  yield* Console.log(`assistant ${created.id}: ${created.name} (budget ${created.budget})`)
  const result = yield* Assistants.runAndPoll(created.id, {
    input: [{ role: "user", content: "What should I pack for a weekend in the mountains?" }],
    // overrides the stored budget for this call only; the rest comes from the assistant
    budget: "medium",
    include: ["requirements_result"]
  })
  yield* Console.log(`run ${result.id}: ${result.status}`)
  yield* Console.log(typeof result.result === "string" ? result.result : JSON.stringify(result.result))
  for (const requirement of result.requirements_result?.requirements ?? []) {
    yield* Console.log(`  ${requirement.name}: ${requirement.score} - ${requirement.reason}`)
  }
})

const tour = Effect.gen(function*() {
  yield* Console.log(
    `studio-effect tour against ${target}`
  )
  yield* chat
  yield* streamedChat
  yield* run
  yield* assistant
})

NodeRuntime.runMain(tour.pipe(Effect.scoped, Effect.provide(StudioLive)), StudioError.reportInOneLine)
