/**
 * The workflow engine of this line (`@effect/workflow`), for the tests of `studio-effect/workflow`.
 */
export * as WorkflowEngine from "@effect/workflow/WorkflowEngine"
/** Durable sleeps: a sleep longer than a minute suspends the workflow, which the engine replays on waking. */
export * as DurableClock from "@effect/workflow/DurableClock"

import * as Workflow from "@effect/workflow/Workflow"
import type * as Schema from "effect/Schema"

/** A workflow named `tag`, whose payload, success and error are these schemas. */
export const makeWorkflow = <
  const Tag extends string,
  Payload extends Schema.Struct.Fields,
  Success extends Schema.Schema.Any,
  Error extends Schema.Schema.All
>(
  tag: Tag,
  options: {
    readonly payload: Payload
    readonly success: Success
    readonly error: Error
    readonly idempotencyKey: (payload: Schema.Struct.Type<Payload>) => string
  }
) =>
  // the payload's type, which `make` computes from the fields by a conditional type a generic cannot reduce
  Workflow.make<Tag, Payload, Success, Error>(
    {
      name: tag,
      ...options
    } as Parameters<typeof Workflow.make<Tag, Payload, Success, Error>>[0]
  )
