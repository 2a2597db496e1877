/**
 * Orchestration ("Maestro") runs on the wire: the run request as it is once validated (every rule kept,
 * an explicit `null` read as absent), the run object as it is once decoded, the literal tables, and the
 * rules and limits of the interface. Field names are the wire names. Each Effect line's schemas decode to
 * these types and build their literals from these tables.
 *
 * @since 0.1.0
 */

// ---------------------------------------------------------------------------------------------------------
// conversation input
// ---------------------------------------------------------------------------------------------------------

/**
 * The roles of a turn of a run's conversation.
 *
 * @since 0.1.0
 * @category tables
 */
export const runRoles = ["user", "assistant"] as const

/**
 * A turn of a conversation given to a run or an assistant.
 *
 * @since 0.1.0
 * @category models
 */
export interface RunMessage {
  readonly role: typeof runRoles[number]
  readonly content: string
}

/**
 * A run's input: an instruction string (one user turn) or turns alternating between user and assistant.
 *
 * @since 0.1.0
 * @category models
 */
export type RunInput = string | ReadonlyArray<RunMessage>

// ---------------------------------------------------------------------------------------------------------
// requirements
// ---------------------------------------------------------------------------------------------------------

/**
 * Most requirements one run (or assistant) may carry.
 *
 * @since 0.1.0
 * @category limits
 */
export const maxRequirements = 10

/**
 * Most words in a requirement's description.
 *
 * @since 0.1.0
 * @category limits
 */
export const maxDescriptionWords = 128

/**
 * Words as a person counts them: runs of non-space characters.
 *
 * @since 0.1.0
 * @category rules
 */
export const countWords = (text: string): number => {
  const trimmed = text.trim()
  return trimmed === "" ? 0 : trimmed.split(/\s+/u).length
}

/**
 * A condition the output should meet. A mandatory requirement that is not fully met makes the overall
 * score 0.
 *
 * @since 0.1.0
 * @category models
 */
export interface Requirement {
  readonly name: string
  readonly description: string
  readonly is_mandatory?: boolean | undefined
}

// ---------------------------------------------------------------------------------------------------------
// tools
// ---------------------------------------------------------------------------------------------------------

const domain = String.raw`(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z][A-Za-z0-9-]{0,62}`
const webSearchUrlPattern = new RegExp(String.raw`^(?:https://${domain}/?|${domain}(?:/[^\s/][^\s]*)?)$`)

/**
 * Whether a `web_search.urls` entry has one of the shapes the interface accepts: `https://<domain>`,
 * `<domain>`, `<domain>/<path>` or `<subdomain>.<domain>`.
 *
 * @since 0.1.0
 * @category rules
 */
export const isWebSearchUrl = (value: string): boolean => webSearchUrlPattern.test(value)

/**
 * The kinds of run tool, each its own shape.
 *
 * @since 0.1.0
 * @category tables
 */
export const runToolTypes = ["mcp", "http", "file_search", "web_search"] as const

/**
 * Header names and values.
 *
 * @since 0.1.0
 * @category models
 */
export interface StringMap {
  readonly [key: string]: string
}

/**
 * An external tool server the engine may call; `server_url` is a fully qualified URL.
 *
 * @since 0.1.0
 * @category models
 */
export interface McpTool {
  readonly type: "mcp"
  readonly server_label: string
  readonly server_url: string
  readonly headers?: StringMap | undefined
  readonly allowed_tools?: ReadonlyArray<string> | undefined
}

/**
 * The function an HTTP tool stands for.
 *
 * @since 0.1.0
 * @category models
 */
export interface HttpToolFunction {
  readonly name?: string | undefined
  readonly description?: string | undefined
  readonly parameters?: { readonly [key: string]: unknown } | undefined
}

/**
 * Where an HTTP tool is called; `url` is a fully qualified URL.
 *
 * @since 0.1.0
 * @category models
 */
export interface HttpToolEndpoint {
  readonly url: string
  readonly headers?: StringMap | undefined
}

/**
 * An HTTP POST endpoint the engine may call.
 *
 * @since 0.1.0
 * @category models
 */
export interface HttpTool {
  readonly type: "http"
  readonly function: HttpToolFunction
  readonly endpoint: HttpToolEndpoint
}

/**
 * How a file must match `labels`: `AND`, all of them (the service's default); `OR`, any.
 *
 * @since 0.1.0
 * @category tables
 */
export const labelsFilterModes = ["AND", "OR"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type LabelsFilterMode = typeof labelsFilterModes[number]

/**
 * What a file search returns of a file: the matching `segments` (the service's default), the service's
 * `default`, segments with their neighbours (`add_neighbors`), or the whole document (`full_doc`).
 *
 * @since 0.1.0
 * @category tables
 */
export const retrievalStrategies = ["segments", "default", "add_neighbors", "full_doc"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type RetrievalStrategy = typeof retrievalStrategies[number]

/**
 * A JSON object, given as is.
 *
 * @since 0.1.0
 * @category models
 */
export interface JsonObject {
  readonly [key: string]: unknown
}

/**
 * Filters applied whenever the engine searches files, and how it retrieves what it finds (the real
 * service's retrieval options). `max_neighbors` is a whole number, at least 0.
 *
 * @since 0.1.0
 * @category models
 */
export interface FileSearchFilters {
  readonly labels?: ReadonlyArray<string> | undefined
  readonly labels_filter_mode?: LabelsFilterMode | undefined
  readonly labels_filter?: JsonObject | undefined
  readonly file_ids?: ReadonlyArray<string> | undefined
  readonly path?: string | undefined
  readonly retrieval_strategy?: RetrievalStrategy | undefined
  readonly max_neighbors?: number | undefined
  readonly retrieval_similarity_threshold?: number | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface FileSearchTool extends FileSearchFilters {
  readonly type: "file_search"
}

/**
 * Filters applied whenever the engine searches the web; each entry keeps `isWebSearchUrl`.
 *
 * @since 0.1.0
 * @category models
 */
export interface WebSearchFilters {
  readonly urls?: ReadonlyArray<string> | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface WebSearchTool extends WebSearchFilters {
  readonly type: "web_search"
}

/**
 * A run tool, discriminated by `type`.
 *
 * @since 0.1.0
 * @category models
 */
export type RunTool = McpTool | HttpTool | FileSearchTool | WebSearchTool

/**
 * The older body shape that sets search filters through `tool_resources` instead of `tools`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolResources {
  readonly file_search?: FileSearchFilters | undefined
  readonly web_search?: WebSearchFilters | undefined
}

// ---------------------------------------------------------------------------------------------------------
// the request
// ---------------------------------------------------------------------------------------------------------

/**
 * The effort a run may spend: `low` (one step), `medium` (several), `high` (several strategies).
 *
 * @since 0.1.0
 * @category tables
 */
export const budgets = ["low", "medium", "high"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type Budget = typeof budgets[number]

/**
 * Languages a run can answer in.
 *
 * @since 0.1.0
 * @category tables
 */
export const responseLanguages = [
  "arabic",
  "dutch",
  "english",
  "french",
  "german",
  "hebrew",
  "italian",
  "portuguese",
  "spanish"
] as const

/**
 * @since 0.1.0
 * @category models
 */
export type ResponseLanguage = typeof responseLanguages[number]

/**
 * The response language that asks for none: the run detects the language of its input. The service stores
 * it on assistants that set none, and its clients send it back.
 *
 * @since 0.1.0
 * @category tables
 */
export const unsetResponseLanguage = "unset"

/**
 * The values of a run's `response_language`: a language, or `unsetResponseLanguage`.
 *
 * @since 0.1.0
 * @category tables
 */
export const runResponseLanguages = [...responseLanguages, unsetResponseLanguage] as const

/**
 * @since 0.1.0
 * @category models
 */
export type RunResponseLanguage = typeof runResponseLanguages[number]

/**
 * Most models one run may name: a run uses a single model.
 *
 * @since 0.1.0
 * @category limits
 */
export const maxRunModels = 1

/**
 * Extra fields a run may return.
 *
 * @since 0.1.0
 * @category tables
 */
export const runIncludes = ["data_sources", "requirements_result"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type RunInclude = typeof runIncludes[number]

/**
 * The fields a run and a stored assistant share, and that a call may override.
 *
 * @since 0.1.0
 * @category models
 */
export interface RunConfigurationFields {
  readonly system_prompt?: string | undefined
  readonly requirements?: ReadonlyArray<Requirement> | undefined
  readonly tools?: ReadonlyArray<RunTool> | undefined
  readonly models?: ReadonlyArray<string> | undefined
  readonly budget?: Budget | undefined
  readonly response_language?: RunResponseLanguage | undefined
}

/**
 * The named output types: `json`, which the interface's samples send.
 *
 * @since 0.1.0
 * @category tables
 */
export const namedOutputTypes = ["json"] as const

/**
 * The structured output format of a run: a JSON Schema object of its result, or a named output type.
 *
 * @since 0.1.0
 * @category models
 */
export type OutputType = typeof namedOutputTypes[number] | { readonly [key: string]: unknown }

/**
 * How a run works, as a run and an assistant run take it: `verbose` (a more detailed run), and the service's
 * `structured_rag_enabled` and `dynamic_planning_enabled` switches; each `false` when left out.
 *
 * @since 1.1.0
 * @category models
 */
export interface RunOptionsFields {
  readonly verbose?: boolean | undefined
  readonly structured_rag_enabled?: boolean | undefined
  readonly dynamic_planning_enabled?: boolean | undefined
}

/**
 * A request to create a run that keeps every rule of the interface.
 *
 * @since 0.1.0
 * @category models
 */
export interface RunRequest extends RunConfigurationFields, RunOptionsFields {
  readonly input?: RunInput | undefined
  readonly output_type?: OutputType | undefined
  readonly include?: ReadonlyArray<RunInclude> | undefined
  readonly tool_resources?: ToolResources | undefined
}

// ---------------------------------------------------------------------------------------------------------
// the run
// ---------------------------------------------------------------------------------------------------------

/**
 * The statuses the interface names: `in_progress`, then `completed`, `failed` or `requires_action`.
 *
 * @since 0.1.0
 * @category tables
 */
export const runStatuses = ["in_progress", "completed", "failed", "requires_action"] as const

/**
 * Where a run is: one of `runStatuses`, or a newer status.
 *
 * @since 0.1.0
 * @category models
 */
export type RunStatus = typeof runStatuses[number] | (string & {})

/**
 * Whether a run with this status has stopped changing: `completed`, `failed` or `requires_action`.
 *
 * @since 0.1.0
 * @category rules
 */
export const isTerminalStatus = (status: RunStatus): boolean =>
  status === "completed" || status === "failed" || status === "requires_action"

/**
 * How well one requirement was met.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequirementScore {
  readonly name: string
  readonly description?: string | undefined
  readonly is_mandatory?: boolean | undefined
  readonly score: number
  readonly reason?: string | null | undefined
  readonly [key: string]: unknown
}

/**
 * Scores of a run against its requirements; `score` is the overall score.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequirementsResult {
  readonly score?: number | undefined
  readonly finish_reason?: string | null | undefined
  readonly requirements: ReadonlyArray<RequirementScore>
  readonly metadata?: unknown
  readonly [key: string]: unknown
}

/**
 * A web page a run drew on: its `url`, and as the service sends them, the `text` used, its relevance
 * `score` and an `id`.
 *
 * @since 0.1.0
 * @category models
 */
export interface WebSearchSource {
  readonly url: string
  readonly text?: string | null | undefined
  readonly score?: number | null | undefined
  readonly id?: string | null | undefined
  readonly [key: string]: unknown
}

/**
 * A segment of a library file a run drew on.
 *
 * @since 0.1.0
 * @category models
 */
export interface FileSearchSource {
  readonly file_id?: string | undefined
  readonly file_name?: string | undefined
  readonly text?: string | null | undefined
  readonly score?: number | null | undefined
  readonly order?: number | undefined
  readonly [key: string]: unknown
}

/**
 * Where a run's answer came from: web pages, library files, and the tool calls it made (each as the
 * service describes it).
 *
 * @since 0.1.0
 * @category models
 */
export interface DataSources {
  readonly web_search?: ReadonlyArray<WebSearchSource> | null | undefined
  readonly file_search?: ReadonlyArray<FileSearchSource> | null | undefined
  readonly tool_calls?: ReadonlyArray<JsonObject> | null | undefined
  readonly [key: string]: unknown
}

/**
 * Why a run failed.
 *
 * @since 0.1.0
 * @category models
 */
export interface RunError {
  readonly message: string
  readonly [key: string]: unknown
}

/**
 * A run, as created, retrieved or polled; `result` is `null` until the run completes. Fields the schemas
 * do not name are kept as the service sent them.
 *
 * @since 0.1.0
 * @category models
 */
export interface MaestroRun {
  readonly id: string
  readonly status: RunStatus
  readonly result: unknown
  readonly created_at?: string | null | undefined
  readonly data_sources?: DataSources | null | undefined
  readonly requirements_result?: RequirementsResult | null | undefined
  readonly error?: RunError | null | undefined
  readonly [key: string]: unknown
}

/**
 * Why a `failed` run failed, as `RunFailed` says it: the service's `error.message`, or that it gave none.
 *
 * @since 1.1.0
 * @category runs
 */
export const runFailureReason = (run: { readonly error?: { readonly message?: string } | null | undefined }): string =>
  run.error?.message ?? "the service gave no reason"
