/**
 * Batches of the reference service on Effect's clock: the store of `studio-effect-core/reference/batches`,
 * with each line run, when it is due, through the same chat completion as the chat route (checked by the
 * same schema and rules; a request the route would refuse goes to the error file with the route's answer).
 * Lines are run when the batch is next looked at, so `TestClock` drives a batch and nothing sleeps.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { answerSchemaIssue } from "studio-effect-core/reference/answerSchema"
import * as Batches from "studio-effect-core/reference/batches"
import { completion } from "studio-effect-core/reference/chat"
import { modelIssue, shapeOf } from "studio-effect-core/reference/fastApi"
import type { Ids } from "studio-effect-core/reference/ids"
import type { BatchFileType, BatchLine } from "studio-effect-core/wire/batches"
import { chatModels } from "studio-effect-core/wire/models"
import { ChatRequest } from "../ChatSchema.js"
import * as Chat from "./chat.js"
import type { Model } from "./model.js"
import * as Wire from "./wire.js"

/** A refusal of a line, as the chat route would answer it: 422 with FastAPI's issues. */
const refused = (issues: ReadonlyArray<Wire.FastApiIssue>): Batches.LineOutcome => ({
  _tag: "Refused",
  status: 422,
  message: issues.map((issue) => `${issue.loc.join(".")}: ${issue.msg}`).join("; "),
  body: { detail: issues }
})

/** The batches of one tenant (see `Batches.makeBatchStore`), each line run by `model`. */
export const makeBatchStore = (options: {
  readonly model: Model
  readonly seed: number
  readonly ids: Ids
  readonly extraModels: ReadonlyArray<string>
  readonly maxJsonDepth: number
  readonly limits: Batches.BatchStoreLimits
  readonly timing: Batches.BatchTiming
}) => {
  const store = Batches.makeBatchStore(options)
  const acceptedChatModels = [...chatModels, ...options.extraModels]
  const now = Clock.currentTimeMillis

  /** One line through the chat route's rules and model. */
  const runLine = (line: BatchLine): Effect.Effect<Batches.LineOutcome> =>
    Effect.gen(function*() {
      if (shapeOf(line.body, options.maxJsonDepth).tooDeep) {
        return refused([{
          loc: ["body"],
          msg: `JSON nested more than ${options.maxJsonDepth} levels deep`,
          type: "value_error"
        }])
      }
      const decoded = yield* Effect.either(Wire.decodeBody(ChatRequest, line.body))
      if (decoded._tag === "Left") return refused(decoded.left.issues)
      const request = decoded.right
      if (!acceptedChatModels.includes(request.model)) {
        return refused([modelIssue(acceptedChatModels, ["body", "model"])])
      }
      if (request.stream === true) {
        return refused([{ loc: ["body", "stream"], msg: "A batch's request is answered whole", type: "value_error" }])
      }
      const schemaIssue = answerSchemaIssue(request)
      if (schemaIssue !== undefined) return refused([schemaIssue])
      const generated = yield* Chat.generate(options.model, request, { seed: options.seed, ids: options.ids })
      return { _tag: "Answered", body: completion(generated) } as const
    })

  /** Runs the batch's lines due by now, each once, and keeps what they came to. */
  const advance = (id: string) =>
    Effect.gen(function*() {
      for (const { index, line } of store.due(id, yield* now)) {
        store.record(id, index, yield* runLine(line))
      }
    })

  /** `f` at the current time, once the batch's due lines have run. */
  const advanced = <A>(id: string, f: (time: number) => A) => Effect.andThen(advance(id), Effect.map(now, f))

  return {
    create: (batch: Parameters<typeof store.create>[0]) => Effect.map(now, (time) => store.create(batch, time)),
    retrieve: (id: string) => advanced(id, (time) => store.retrieve(id, time)),
    list: (page: { readonly after?: string | undefined; readonly limit: number }) =>
      Effect.gen(function*() {
        for (const batch of store.list(page, yield* now)) yield* advance(batch.id)
        return store.list(page, yield* now)
      }),
    cancel: (id: string) => advanced(id, (time) => store.cancel(id, time)),
    results: (id: string, fileType: BatchFileType, force: boolean) =>
      advanced(id, (time) => store.results(id, fileType, force, time))
  }
}

/** The batches of one tenant. */
export type BatchStore = ReturnType<typeof makeBatchStore>
