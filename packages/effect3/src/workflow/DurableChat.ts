/**
 * The tool loop of `Chat.runTools` that survives a restart, inside a workflow of one's own on Effect's
 * workflow engine (`@effect/workflow`): each completion and each tool call is an activity whose result is
 * stored, so after a crash the engine replays the loop from storage, and no completion is created, nor
 * tool run, a second time.
 *
 * @since 1.1.0
 */
import * as Activity from "@effect/workflow/Activity"
import type * as WorkflowEngine from "@effect/workflow/WorkflowEngine"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { durableStepNames } from "studio-effect-core/workflow/durablePolling"
import * as Chat from "../Chat.js"
import { ChatCompletion, type ChatRequest } from "../ChatSchema.js"
import {
  type RunToolsOptions,
  type ToolHandlers,
  toolLoop,
  type ToolLoopResult
} from "../internal/operation/toolLoop.js"
import type { StudioClient } from "../StudioClient.js"
import { StudioError, type ToolCallError } from "../StudioError.js"
import { refuseStoredCredentials } from "./storedRequest.js"

/**
 * The schema a workflow stores a handler's failure with, for handlers that fail with errors of their own
 * (anything other than a `StudioError`): a schema of those errors, with no services.
 *
 * @since 1.1.0
 * @category models
 */
export interface ToolErrorOptions<E, I> {
  readonly toolError: Schema.Schema<E, I>
}

/**
 * Runs the tool loop of `Chat.runTools` inside a workflow, with the same rounds, bounds and outcomes, each
 * step an activity whose result the workflow stores: the completion of round `n` is the activity
 * `studio.chat.round.<n>` (a `ChatCompletion`, or the `StudioError` it failed with), and each tool call the
 * activity `studio.chat.tool.<id>`, keyed by the call's id (the tool message's content, the handler's answer
 * as `Chat.runTools` sends it, or the handler's failure). On a retry or after a restart, the engine replays
 * the loop: completed rounds and calls come from storage, and are never created or run again (a handler
 * stopped before it ended, say while it waits on a durable clock, runs again, since only ended steps are
 * stored). A run of the workflow holds one durable tool loop, since the steps are named by round and call.
 *
 * A handler's failure is stored too, so it must have a schema: handlers that fail only with `StudioError`
 * (such as a handler that calls the service itself) need nothing more; handlers that fail with errors of
 * their own give that schema as `options.toolError`, and the loop fails with that error, decoded from
 * storage on a replay. Bad options fail with `ValidationError`, a call the loop cannot run with
 * `ToolCallError`, as `Chat.runTools` does; neither is stored, since a replay finds them again from the
 * stored completions. A request whose tools carry credentials fails with `ValidationError` before anything
 * is sent, as the durable runs do. It needs the workflow engine and instance (any workflow's handler has
 * them) and a `StudioClient`.
 *
 * @since 1.1.0
 * @category tools
 */
export const runTools: {
  <R = never>(
    request: ChatRequest,
    handlers: ToolHandlers<StudioError, R>,
    options?: RunToolsOptions
  ): Effect.Effect<
    ToolLoopResult,
    StudioError | ToolCallError,
    StudioClient | WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance | R
  >
  <E, I, R = never>(
    request: ChatRequest,
    handlers: ToolHandlers<E, R>,
    options: RunToolsOptions & ToolErrorOptions<E, I>
  ): Effect.Effect<
    ToolLoopResult,
    StudioError | ToolCallError | E,
    StudioClient | WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance | R
  >
} = <E, I, R>(
  request: ChatRequest,
  handlers: ToolHandlers<E, R>,
  options: RunToolsOptions & Partial<ToolErrorOptions<E, I>> = {}
) => {
  const toolError = options.toolError ?? StudioError
  return refuseStoredCredentials("chat.runTools", request).pipe(
    Effect.andThen(toolLoop(
      {
        create: (request, round) =>
          Activity.make({
            name: durableStepNames.chatRound(round),
            success: ChatCompletion,
            error: StudioError,
            execute: Chat.create(request)
          }),
        runCall: (call, answer) =>
          Activity.make({
            name: durableStepNames.toolCall(call.id),
            success: Schema.String,
            error: toolError,
            execute: answer
          })
      },
      request,
      handlers,
      options
    ))
  )
}
