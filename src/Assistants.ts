/**
 * Stored assistants: `run` one by id (Beta) and `runAndPoll` the run it starts, and manage them with
 * `create`, `retrieve`, `list`, `update` and `delete` (which the real service has, although the interface
 * does not show them).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import {
  Assistant,
  AssistantList,
  AssistantRunRequest,
  CreateAssistantRequest,
  DeletedAssistant,
  ModifyAssistantRequest
} from "./AssistantSchema.js"
import { spanOptions } from "./internal/telemetry.js"
import { pathSegment, validateRequest } from "./internal/validate.js"
import * as Maestro from "./Maestro.js"
import { MaestroRun } from "./MaestroSchema.js"
import { type Service, StudioClient } from "./StudioClient.js"
import type { StudioError } from "./StudioError.js"

const assistantsPath = "/studio/v1/assistants"

/**
 * How to run an assistant.
 *
 * @since 0.1.0
 * @category models
 */
export interface RunOptions {
  /**
   * Which path to post to: `"run"` (default) posts to `/studio/v1/assistants/{id}/run`, the operation's
   * titled path; `"sample"` posts to `/studio/v1/assistants/{id}`, the form the interface's samples use.
   */
  readonly path?: "run" | "sample" | undefined
}

/**
 * How to run an assistant and poll the run it starts.
 *
 * @since 0.1.0
 * @category models
 */
export interface RunAndPollOptions extends RunOptions, Maestro.PollOptions {}

/**
 * Options of `list`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ListOptions {
  /** Only the assistants of these workspaces. */
  readonly workspaceIds?: ReadonlyArray<string> | undefined
}

/** The options of `list`, checked like a request body. */
const ListOptionsSchema = Schema.Struct({
  workspaceIds: Schema.optional(Schema.Array(Schema.String))
})

const withAssistantId = <A>(
  operation: string,
  assistantId: string,
  f: (client: Service, id: string) => Effect.Effect<A, StudioError>
): Effect.Effect<A, StudioError, StudioClient> =>
  Effect.flatMap(
    pathSegment(operation, "assistantId", assistantId),
    (id) => Effect.flatMap(StudioClient, (client) => f(client, id))
  )

const span = (name: string, attributes: Record<string, unknown>) =>
  Effect.withSpan(`studio.${name}`, spanOptions(attributes))

/**
 * Runs a stored assistant (Beta). `input` (at least one message) is required; `output_type` is an object
 * or `"json"`; `include` takes `data_sources`, `requirements_result` and `requirements_result.metadata`.
 * A configuration field sent here (for example `requirements`) overrides only that field of the stored
 * assistant, for this call. The request is checked first; a broken rule fails with `ValidationError` and
 * nothing is sent. An unknown assistant fails with `NotFound`.
 *
 * Returns the run the call started; it may still be `in_progress` (see `runAndPoll`).
 *
 * @since 0.1.0
 * @category operations
 */
export const run = (
  assistantId: string,
  request: AssistantRunRequest,
  options: RunOptions = {}
): Effect.Effect<MaestroRun, StudioError, StudioClient> =>
  Effect.flatMap(
    validateRequest("assistants.run", AssistantRunRequest, request),
    (valid) =>
      withAssistantId("assistants.run", assistantId, (client, id) =>
        client.json({
          operation: "assistants.run",
          method: "POST",
          path: options.path === "sample" ? `${assistantsPath}/${id}` : `${assistantsPath}/${id}/run`,
          body: valid,
          response: MaestroRun
        }))
  ).pipe(
    Effect.tap((started) =>
      Effect.annotateCurrentSpan({ "studio.run.id": started.id, "studio.run.status": started.status })
    ),
    span("assistants.run", { "studio.assistant.id": assistantId, "studio.assistant.path": options.path ?? "run" })
  )

/**
 * Runs a stored assistant and polls the run it starts until it is terminal, as `Maestro.poll` does: the
 * run's answer is the first snapshot, `failed` becomes `RunFailed`, and the deadline `PollTimeout`.
 *
 * @since 0.1.0
 * @category operations
 */
export const runAndPoll = (
  assistantId: string,
  request: AssistantRunRequest,
  options: RunAndPollOptions = {}
): Effect.Effect<MaestroRun, StudioError, StudioClient> =>
  Effect.flatMap(run(assistantId, request, options), (started) => Maestro.poll(started, options))

/**
 * Creates an assistant. `name` is required; its run configuration (requirements, tools, model, budget,
 * ...) is checked by the rules of a run before anything is sent.
 *
 * @since 0.1.0
 * @category operations
 */
export const create = (request: CreateAssistantRequest): Effect.Effect<Assistant, StudioError, StudioClient> =>
  Effect.flatMap(
    validateRequest("assistants.create", CreateAssistantRequest, request),
    (valid) =>
      Effect.flatMap(StudioClient, (client) =>
        client.json({
          operation: "assistants.create",
          method: "POST",
          path: assistantsPath,
          body: valid,
          response: Assistant
        }))
  ).pipe(
    Effect.tap((assistant) => Effect.annotateCurrentSpan("studio.assistant.id", assistant.id)),
    span("assistants.create", {})
  )

/**
 * Retrieves an assistant. An unknown id fails with `NotFound`.
 *
 * @since 0.1.0
 * @category operations
 */
export const retrieve = (assistantId: string): Effect.Effect<Assistant, StudioError, StudioClient> =>
  withAssistantId("assistants.retrieve", assistantId, (client, id) =>
    client.json({
      operation: "assistants.retrieve",
      method: "GET",
      path: `${assistantsPath}/${id}`,
      response: Assistant
    })).pipe(span("assistants.retrieve", { "studio.assistant.id": assistantId }))

/**
 * Lists the assistants the key can see, optionally only those of some workspaces.
 *
 * @since 0.1.0
 * @category operations
 */
export const list = (options: ListOptions = {}): Effect.Effect<AssistantList, StudioError, StudioClient> =>
  Effect.flatMap(
    Effect.zip(validateRequest("assistants.list", ListOptionsSchema, options), StudioClient),
    ([valid, client]) => {
      const query = new URLSearchParams()
      for (const workspaceId of valid.workspaceIds ?? []) query.append("workspace_ids", workspaceId)
      const search = query.toString()
      return client.json({
        operation: "assistants.list",
        method: "GET",
        path: search === "" ? assistantsPath : `${assistantsPath}?${search}`,
        response: AssistantList
      })
    }
  ).pipe(span("assistants.list", {}))

/**
 * Modifies an assistant (PATCH): only the fields sent change. An unknown id fails with `NotFound`.
 *
 * @since 0.1.0
 * @category operations
 */
export const update = (
  assistantId: string,
  request: ModifyAssistantRequest
): Effect.Effect<Assistant, StudioError, StudioClient> =>
  Effect.flatMap(
    validateRequest("assistants.update", ModifyAssistantRequest, request),
    (valid) =>
      withAssistantId("assistants.update", assistantId, (client, id) =>
        client.json({
          operation: "assistants.update",
          method: "PATCH",
          path: `${assistantsPath}/${id}`,
          body: valid,
          response: Assistant
        }))
  ).pipe(span("assistants.update", { "studio.assistant.id": assistantId }))

const del = (assistantId: string): Effect.Effect<DeletedAssistant, StudioError, StudioClient> =>
  withAssistantId("assistants.delete", assistantId, (client, id) =>
    client.json({
      operation: "assistants.delete",
      method: "DELETE",
      path: `${assistantsPath}/${id}`,
      response: DeletedAssistant
    })).pipe(span("assistants.delete", { "studio.assistant.id": assistantId }))

export {
  /**
   * Deletes an assistant. An unknown id fails with `NotFound`.
   *
   * @since 0.1.0
   * @category operations
   */
  del as delete
}
