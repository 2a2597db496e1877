/**
 * Stored assistants: `run` one by id (Beta) and `runAndPoll` the run it starts, and manage them with
 * `create`, `retrieve`, `list`, `update` and `delete` (which the real service has, although the interface
 * does not show them).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { acceptAssistantRunRequest, acceptCreateAssistantRequest } from "studio-effect-core/validate/assistantRequests"
import { assistantsListQuery, endpointPath, endpoints } from "studio-effect-core/wire/endpoints"
import {
  Assistant,
  AssistantList,
  AssistantRunRequest,
  CreateAssistantRequest,
  DeletedAssistant,
  ModifyAssistantRequest
} from "./AssistantSchema.js"
import * as Operation from "./internal/operation/operation.js"
import * as Maestro from "./Maestro.js"
import { MaestroRun } from "./MaestroSchema.js"
import type { StudioClient, WithResponse } from "./StudioClient.js"
import type { RequestError, StudioError } from "./StudioError.js"

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

const runOperation = Operation.json({
  endpoint: endpoints.assistantsRun,
  check: (operation, input: { readonly id: string; readonly request: unknown; readonly options: RunOptions }) =>
    Effect.map(
      Operation.checkIdAndRequest("assistantId", AssistantRunRequest, acceptAssistantRunRequest)(operation, input),
      (valid) => ({ ...valid, form: input.options.path ?? "run" })
    ),
  path: ({ form, segment }) =>
    endpointPath(form === "sample" ? endpoints.assistantsRunSample : endpoints.assistantsRun, segment),
  body: ({ request }) => request,
  response: MaestroRun
})

const createOperation = Operation.json({
  endpoint: endpoints.assistantsCreate,
  check: Operation.checkRequest(CreateAssistantRequest, acceptCreateAssistantRequest),
  body: (valid) => valid,
  response: Assistant
})

const retrieveOperation = Operation.json({
  endpoint: endpoints.assistantsRetrieve,
  check: Operation.checkId("assistantId"),
  response: Assistant
})

const listOperation = Operation.json({
  endpoint: endpoints.assistantsList,
  check: Operation.checkRequest(ListOptionsSchema),
  path: (valid) => endpointPath(endpoints.assistantsList, undefined, assistantsListQuery(valid)),
  response: AssistantList
})

const updateOperation = Operation.json({
  endpoint: endpoints.assistantsUpdate,
  check: Operation.checkIdAndRequest("assistantId", ModifyAssistantRequest),
  body: ({ request }) => request,
  response: Assistant
})

const deleteOperation = Operation.json({
  endpoint: endpoints.assistantsDelete,
  check: Operation.checkId("assistantId"),
  response: DeletedAssistant
})

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
): Effect.Effect<MaestroRun, RequestError, StudioClient> => runOperation({ id: assistantId, request, options })

/**
 * `run`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const runWithResponse = (
  assistantId: string,
  request: AssistantRunRequest,
  options: RunOptions = {}
): Effect.Effect<WithResponse<MaestroRun>, RequestError, StudioClient> =>
  runOperation.withResponse({ id: assistantId, request, options })

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
export const create: (request: CreateAssistantRequest) => Effect.Effect<Assistant, RequestError, StudioClient> =
  createOperation

/**
 * `create`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const createWithResponse: (
  request: CreateAssistantRequest
) => Effect.Effect<WithResponse<Assistant>, RequestError, StudioClient> = createOperation.withResponse

/**
 * Retrieves an assistant. An unknown id fails with `NotFound`.
 *
 * @since 0.1.0
 * @category operations
 */
export const retrieve: (assistantId: string) => Effect.Effect<Assistant, RequestError, StudioClient> = retrieveOperation

/**
 * `retrieve`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const retrieveWithResponse: (
  assistantId: string
) => Effect.Effect<WithResponse<Assistant>, RequestError, StudioClient> = retrieveOperation.withResponse

/**
 * Lists the assistants the key can see, optionally only those of some workspaces.
 *
 * @since 0.1.0
 * @category operations
 */
export const list = (options: ListOptions = {}): Effect.Effect<AssistantList, RequestError, StudioClient> =>
  listOperation(options)

/**
 * `list`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const listWithResponse = (
  options: ListOptions = {}
): Effect.Effect<WithResponse<AssistantList>, RequestError, StudioClient> => listOperation.withResponse(options)

/**
 * Modifies an assistant (PATCH): only the fields sent change. An unknown id fails with `NotFound`.
 *
 * @since 0.1.0
 * @category operations
 */
export const update = (
  assistantId: string,
  request: ModifyAssistantRequest
): Effect.Effect<Assistant, RequestError, StudioClient> => updateOperation({ id: assistantId, request })

/**
 * `update`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const updateWithResponse = (
  assistantId: string,
  request: ModifyAssistantRequest
): Effect.Effect<WithResponse<Assistant>, RequestError, StudioClient> =>
  updateOperation.withResponse({ id: assistantId, request })

const del: (assistantId: string) => Effect.Effect<DeletedAssistant, RequestError, StudioClient> = deleteOperation

/**
 * `delete`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const deleteWithResponse: (
  assistantId: string
) => Effect.Effect<WithResponse<DeletedAssistant>, RequestError, StudioClient> = deleteOperation.withResponse

export {
  /**
   * Deletes an assistant. An unknown id fails with `NotFound`.
   *
   * @since 0.1.0
   * @category operations
   */
  del as delete
}
