/**
 * Chat completions of the reference service: runs the model once per choice, and streams the chunks of an
 * answer. What an answer is made of (`stop`, `max_tokens`, tokens, the completion and its chunks) is
 * `studio-effect-core/reference/chat`.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { Reply } from "studio-effect-core/reference/builtInModel"
import * as Answer from "studio-effect-core/reference/chat"
import type { Ids } from "studio-effect-core/reference/ids"
import { type Model, type ModelRequest, runModel } from "./model.js"

/** Runs the model for every choice of a request. */
export const generate = (
  model: Model,
  request: ModelRequest,
  options: { readonly seed: number; readonly ids: Ids }
): Effect.Effect<Answer.Generated> =>
  Effect.gen(function*() {
    const replies: Array<Reply> = []
    for (let index = 0; index < Answer.choiceCount(request); index++) {
      replies.push(yield* runModel(model, request, { index, seed: options.seed, purpose: "chat" }))
    }
    return Answer.generate(request, replies, options.ids)
  })

/**
 * The chunks of a streamed answer (one choice): the role first, then one chunk per token (or per piece of
 * a tool call), and last an empty content delta with `finish_reason` and the only `usage`.
 */
export const chunks = (generated: Answer.Generated): Stream.Stream<unknown> =>
  Stream.fromIterable(Answer.chunksOf(generated))
