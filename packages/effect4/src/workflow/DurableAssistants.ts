/**
 * Assistant runs that survive a restart, as `DurableMaestro`'s runs do: the run is started by an activity run
 * once per workflow execution, whose result is stored, then polled by `DurableMaestro.poll`.
 *
 * @since 1.1.0
 */
import * as Effect from "effect/Effect"
import * as Activity from "effect/workflow/Activity"
import type * as WorkflowEngine from "effect/workflow/WorkflowEngine"
import { durableStepNames } from "studio-effect-core/workflow/durablePolling"
import * as Assistants from "../Assistants.js"
import type { AssistantRunRequest } from "../AssistantSchema.js"
import { MaestroRun } from "../MaestroSchema.js"
import type { StudioClient } from "../StudioClient.js"
import { StudioError } from "../StudioError.js"
import { type DurablePollOptions, poll } from "./DurableMaestro.js"
import { refuseStoredCredentials } from "./storedRequest.js"

/**
 * Runs a stored assistant and polls the run it starts until it is terminal, inside a workflow. The run is
 * started by an activity, once per workflow execution: its result is stored and the run is never started
 * again, on a retry or after a restart. A request whose tools carry credentials fails with
 * `ValidationError`, since the workflow would store them.
 *
 * @since 1.1.0
 * @category operations
 */
export const runAndPoll = (
  assistantId: string,
  request: AssistantRunRequest,
  options: DurablePollOptions & Assistants.RunOptions = {}
): Effect.Effect<
  MaestroRun,
  StudioError,
  StudioClient | WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance
> =>
  refuseStoredCredentials("assistants.run", request).pipe(
    Effect.andThen(
      Activity.make({
        name: durableStepNames.assistantRun,
        success: MaestroRun,
        error: StudioError,
        execute: Assistants.run(assistantId, request, options)
      })
    ),
    Effect.flatMap((run) => poll(run, options))
  )
