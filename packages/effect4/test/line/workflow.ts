/**
 * The workflow engine of this line (`effect/workflow`), for the tests of `studio-effect/workflow`.
 */
export * as WorkflowEngine from "effect/workflow/WorkflowEngine"
/** Durable sleeps: a sleep longer than a minute suspends the workflow, which the engine replays on waking. */
export * as DurableClock from "effect/workflow/DurableClock"

import type * as Schema from "effect/Schema"
import * as Workflow from "effect/workflow/Workflow"

/** A workflow named `tag`, whose payload, success and error are these schemas. */
export const makeWorkflow = <
  const Tag extends string,
  Payload extends Schema.Struct.Fields,
  Success extends Schema.Top,
  Error extends Schema.Top
>(
  tag: Tag,
  options: {
    readonly payload: Payload
    readonly success: Success
    readonly error: Error
    readonly idempotencyKey: (payload: Schema.Struct.Type<Payload>) => string
  }
) => Workflow.make(tag, options)
