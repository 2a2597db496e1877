/**
 * Durable assistant runs inside a workflow of one's own, on the in-memory workflow engine against the
 * reference service: the run is started once per key and polled to its end.
 */
import {
  assert,
  describe,
  Effect,
  Fiber,
  fork,
  isDone,
  it,
  Layer,
  makeWorkflow,
  Schema,
  WorkflowEngine
} from "@studio-effect/line"
import { Assistants, MaestroSchema, StudioError } from "studio-effect"
import * as Reference from "studio-effect/reference"
import { DurableAssistants } from "studio-effect/workflow"
import { advanceUntil } from "../support/clock.js"

const AnswerWorkflow = makeWorkflow("test.answer", {
  payload: { key: Schema.String, assistantId: Schema.String, question: Schema.String },
  success: MaestroSchema.MaestroRun,
  error: StudioError.StudioError,
  idempotencyKey: ({ key }) => key
})

describe("DurableAssistants on the in-memory workflow engine", () => {
  let runs = 0
  const client = Reference.layerClient({
    failRun: () => {
      runs++
      return undefined
    }
  })
  const layer = AnswerWorkflow.toLayer(({ assistantId, question }) =>
    DurableAssistants.runAndPoll(assistantId, { input: [{ role: "user", content: question }] })
  ).pipe(Layer.provideMerge(WorkflowEngine.layerMemory), Layer.provideMerge(client))

  it.effect("runAndPoll starts the assistant's run once per key and polls it to its end", () =>
    Effect.gen(function*() {
      const assistant = yield* Assistants.create({ name: "keeper", description: "Answers about lighthouses" })
      const payload = { key: "question-1", assistantId: assistant.id, question: "What does a lighthouse do?" }
      const first = yield* AnswerWorkflow.execute(payload).pipe(fork)
      yield* advanceUntil(() => isDone(first), "1 second")
      const run = yield* Fiber.join(first)
      assert.strictEqual(run.status, "completed")
      const again = yield* AnswerWorkflow.execute(payload)
      assert.strictEqual(again.id, run.id)
      assert.strictEqual(runs, 1)
    }).pipe(Effect.provide(layer)))
})
