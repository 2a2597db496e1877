/**
 * The operations of the service, each stated once: its name (in errors and in its span `studio.<name>`), its
 * HTTP method, its path template, whether it creates what the service bills or stores, and its span
 * attributes. The SDK's operations build their requests from it and the reference service its routes.
 *
 * @since 0.1.0
 */

/**
 * The base of every path of the service.
 *
 * @since 0.1.0
 * @category constants
 */
export const basePath = "/studio/v1"

/**
 * @since 0.1.0
 * @category models
 */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

/**
 * Attributes of a span; they never hold secrets or message text.
 *
 * @since 0.1.0
 * @category models
 */
export type Attributes = Readonly<Record<string, unknown>>

/**
 * One operation. `In` is what its span attributes are read from (the checked input), `Out` its answer.
 *
 * @since 0.1.0
 * @category models
 */
export interface Endpoint<In = never, Out = never> {
  readonly name: string
  readonly method: Method
  /** After the base URL; `{id}` stands for the identifier, as an encoded path segment. */
  readonly path: string
  /** A create the service bills or stores: retried only where the service cannot have acted. */
  readonly creates: boolean
  readonly attributes: (input: In) => Attributes
  /** Attributes added to the span from the answer. */
  readonly responseAttributes?: ((answer: Out) => Attributes) | undefined
}

/** An input that names a resource by its identifier. */
interface Identified {
  readonly id: string
}

/** What the GenAI attributes of a chat request are read from. */
interface ChatAttributesInput {
  readonly model: string
  readonly max_tokens?: number | undefined
  readonly temperature?: number | undefined
  readonly top_p?: number | undefined
  readonly n?: number | undefined
  readonly stop?: string | ReadonlyArray<string> | undefined
}

/** What the GenAI attributes of a completion are read from. */
interface CompletionAttributesInput {
  readonly id: string
  readonly choices: ReadonlyArray<{ readonly finish_reason?: string | null | undefined }>
  readonly usage: { readonly prompt_tokens: number; readonly completion_tokens: number }
}

/** What the attributes of a run request are read from: what shapes the run, never tool headers or text. */
interface RunAttributesInput {
  readonly models?: ReadonlyArray<string> | undefined
  readonly budget?: string | undefined
  readonly requirements?: ReadonlyArray<unknown> | undefined
  readonly tools?: ReadonlyArray<{ readonly type: string }> | undefined
  readonly include?: ReadonlyArray<string> | undefined
}

/** What a run's answer adds to its span. */
interface RunAnswer {
  readonly id: string
  readonly status: string
}

/**
 * GenAI semantic-convention attributes of a chat request.
 *
 * @since 0.1.0
 * @category attributes
 */
export const chatRequestAttributes = (request: ChatAttributesInput, streamed: boolean): Attributes => {
  const attributes: Record<string, unknown> = {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": request.model,
    "gen_ai.request.stream": streamed
  }
  if (request.max_tokens !== undefined) attributes["gen_ai.request.max_tokens"] = request.max_tokens
  if (request.temperature !== undefined) attributes["gen_ai.request.temperature"] = request.temperature
  if (request.top_p !== undefined) attributes["gen_ai.request.top_p"] = request.top_p
  if (request.n !== undefined) attributes["gen_ai.request.choice.count"] = request.n
  if (request.stop !== undefined) {
    attributes["gen_ai.request.stop_sequences"] = typeof request.stop === "string" ? [request.stop] : request.stop
  }
  return attributes
}

/**
 * GenAI semantic-convention attributes of a completion.
 *
 * @since 0.1.0
 * @category attributes
 */
export const completionAttributes = (completion: CompletionAttributesInput): Attributes => ({
  "gen_ai.response.id": completion.id,
  "gen_ai.response.finish_reasons": completion.choices.map((choice) => choice.finish_reason ?? "unknown"),
  "gen_ai.usage.input_tokens": completion.usage.prompt_tokens,
  "gen_ai.usage.output_tokens": completion.usage.completion_tokens
})

const runRequestAttributes = (request: RunAttributesInput): Attributes => {
  const attributes: Record<string, unknown> = { "gen_ai.operation.name": "maestro.run" }
  if (request.models !== undefined && request.models[0] !== undefined) {
    attributes["gen_ai.request.model"] = request.models[0]
  }
  if (request.budget !== undefined) attributes["studio.run.budget"] = request.budget
  if (request.requirements !== undefined) attributes["studio.run.requirements"] = request.requirements.length
  if (request.tools !== undefined) attributes["studio.run.tools"] = request.tools.map((tool) => tool.type)
  if (request.include !== undefined) attributes["studio.run.include"] = request.include
  return attributes
}

const none = (): Attributes => ({})
const startedRun = (run: RunAnswer): Attributes => ({ "studio.run.id": run.id, "studio.run.status": run.status })
const assistantId = ({ id }: Identified): Attributes => ({ "studio.assistant.id": id })
const fileId = ({ id }: Identified): Attributes => ({ "studio.file.id": id })

const runsPath = `${basePath}/maestro/runs`
const assistantsPath = `${basePath}/assistants`
const filesPath = `${basePath}/library/files`
const batchesPath = `${basePath}/batches`
const batchId = ({ id }: Identified): Attributes => ({ "studio.batch.id": id })

/**
 * Every operation of the service.
 *
 * @since 0.1.0
 * @category tables
 */
export const endpoints = {
  chatCreate: {
    name: "chat.create",
    method: "POST",
    path: `${basePath}/chat/completions`,
    creates: false,
    attributes: (request: ChatAttributesInput) => chatRequestAttributes(request, false),
    responseAttributes: completionAttributes
  },
  chatStream: {
    name: "chat.stream",
    method: "POST",
    path: `${basePath}/chat/completions`,
    creates: false,
    attributes: (request: ChatAttributesInput) => chatRequestAttributes(request, true)
  },
  maestroCreate: {
    name: "maestro.create",
    method: "POST",
    path: runsPath,
    creates: true,
    attributes: runRequestAttributes,
    responseAttributes: startedRun
  },
  maestroRetrieve: {
    name: "maestro.retrieve",
    method: "GET",
    path: `${runsPath}/{id}`,
    creates: false,
    attributes: ({ id }: Identified) => ({ "studio.run.id": id }),
    responseAttributes: (run: RunAnswer) => ({ "studio.run.status": run.status })
  },
  assistantsRun: {
    name: "assistants.run",
    method: "POST",
    path: `${assistantsPath}/{id}/run`,
    creates: true,
    attributes: ({ form, id }: Identified & { readonly form: string }) => ({
      "studio.assistant.id": id,
      "studio.assistant.path": form
    }),
    responseAttributes: startedRun
  },
  /** The form of running an assistant that the interface's samples use. */
  assistantsRunSample: {
    name: "assistants.run",
    method: "POST",
    path: `${assistantsPath}/{id}`,
    creates: true,
    attributes: ({ form, id }: Identified & { readonly form: string }) => ({
      "studio.assistant.id": id,
      "studio.assistant.path": form
    }),
    responseAttributes: startedRun
  },
  assistantsCreate: {
    name: "assistants.create",
    method: "POST",
    path: assistantsPath,
    creates: true,
    attributes: none,
    responseAttributes: (assistant: Identified) => ({ "studio.assistant.id": assistant.id })
  },
  assistantsRetrieve: {
    name: "assistants.retrieve",
    method: "GET",
    path: `${assistantsPath}/{id}`,
    creates: false,
    attributes: assistantId
  },
  assistantsList: { name: "assistants.list", method: "GET", path: assistantsPath, creates: false, attributes: none },
  assistantsUpdate: {
    name: "assistants.update",
    method: "PATCH",
    path: `${assistantsPath}/{id}`,
    creates: false,
    attributes: assistantId
  },
  assistantsDelete: {
    name: "assistants.delete",
    method: "DELETE",
    path: `${assistantsPath}/{id}`,
    creates: false,
    attributes: assistantId
  },
  modelsList: { name: "models.list", method: "GET", path: `${basePath}/models`, creates: false, attributes: none },
  libraryUpload: {
    name: "library.upload",
    method: "POST",
    path: filesPath,
    creates: true,
    attributes: none,
    responseAttributes: (uploaded: { readonly fileId: string }) => ({ "studio.file.id": uploaded.fileId })
  },
  libraryList: { name: "library.list", method: "GET", path: filesPath, creates: false, attributes: none },
  libraryRetrieve: {
    name: "library.retrieve",
    method: "GET",
    path: `${filesPath}/{id}`,
    creates: false,
    attributes: fileId
  },
  libraryUpdate: {
    name: "library.update",
    method: "PUT",
    path: `${filesPath}/{id}`,
    creates: false,
    attributes: fileId
  },
  libraryDelete: {
    name: "library.delete",
    method: "DELETE",
    path: `${filesPath}/{id}`,
    creates: false,
    attributes: fileId
  },
  librarySearch: {
    name: "library.search",
    method: "POST",
    path: `${basePath}/library/search`,
    creates: false,
    attributes: none
  },
  libraryDownload: {
    name: "library.download",
    method: "GET",
    path: `${filesPath}/{id}/download`,
    creates: false,
    attributes: fileId
  },
  libraryParsed: {
    name: "library.parsed",
    method: "GET",
    path: `${filesPath}/{id}/parsed`,
    creates: false,
    attributes: fileId
  },
  libraryBatchStatus: {
    name: "library.batchStatus",
    method: "GET",
    path: `${basePath}/library/batches/{id}/status`,
    creates: false,
    attributes: ({ id }: Identified) => ({ "studio.batch.id": id })
  },
  batchesCreate: {
    name: "batches.create",
    method: "POST",
    path: batchesPath,
    creates: true,
    attributes: ({ endpoint }: { readonly endpoint: string }) => ({ "studio.batch.endpoint": endpoint }),
    responseAttributes: (batch: Identified) => ({ "studio.batch.id": batch.id })
  },
  batchesList: { name: "batches.list", method: "GET", path: batchesPath, creates: false, attributes: none },
  batchesRetrieve: {
    name: "batches.retrieve",
    method: "GET",
    path: `${batchesPath}/{id}`,
    creates: false,
    attributes: batchId
  },
  batchesCancel: {
    name: "batches.cancel",
    method: "POST",
    path: `${batchesPath}/{id}/cancel`,
    creates: false,
    attributes: batchId
  },
  batchesResults: {
    name: "batches.results",
    method: "GET",
    path: `${batchesPath}/{id}/results`,
    creates: false,
    attributes: batchId
  }
} as const satisfies Record<string, Endpoint<any, any>>

/**
 * The name of each operation in the table.
 *
 * @since 0.1.0
 * @category models
 */
export type EndpointName = keyof typeof endpoints

/**
 * An endpoint's path with its identifier, already encoded as a path segment, and a query when one is given.
 *
 * @since 0.1.0
 * @category paths
 */
export const endpointPath = (endpoint: { readonly path: string }, segment?: string, query?: string): string => {
  const path = segment === undefined ? endpoint.path : endpoint.path.replace("{id}", segment)
  return query === undefined || query === "" ? path : `${path}?${query}`
}

/**
 * An endpoint's path as a router's pattern, its identifier a parameter named `id` (`/runs/:id`).
 *
 * @since 0.1.0
 * @category paths
 */
export const routePattern = (endpoint: { readonly path: string }): `/${string}` =>
  endpoint.path.replace("{id}", ":id") as `/${string}`

const templates = [...new Set(Object.values(endpoints).map((endpoint) => endpoint.path))].map((path) =>
  new RegExp(`^${path.replace("{id}", "[^/]+")}$`)
)

/**
 * Whether a path (without its query) names an operation of the service, whatever the method: a known path
 * asked with another method is a 405, not a 404.
 *
 * @since 0.1.0
 * @category paths
 */
export const isServicePath = (path: string): boolean => templates.some((template) => template.test(path))

/**
 * The query of `assistants.list`: the workspaces whose assistants are listed.
 *
 * @since 0.1.0
 * @category paths
 */
export const assistantsListQuery = (options: { readonly workspaceIds?: ReadonlyArray<string> | undefined }): string => {
  const query = new URLSearchParams()
  for (const workspaceId of options.workspaceIds ?? []) query.append("workspace_ids", workspaceId)
  return query.toString()
}

/**
 * The query of `library.list`: its filters and page.
 *
 * @since 0.1.0
 * @category paths
 */
export const libraryListQuery = (filters: {
  readonly name?: string | undefined
  readonly path?: string | undefined
  readonly status?: string | undefined
  readonly label?: ReadonlyArray<string> | undefined
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}): string => {
  const query = new URLSearchParams()
  if (filters.name !== undefined) query.set("name", filters.name)
  if (filters.path !== undefined) query.set("path", filters.path)
  if (filters.status !== undefined) query.set("status", filters.status)
  for (const label of filters.label ?? []) query.append("label", label)
  if (filters.limit !== undefined) query.set("limit", String(filters.limit))
  if (filters.offset !== undefined) query.set("offset", String(filters.offset))
  return query.toString()
}
