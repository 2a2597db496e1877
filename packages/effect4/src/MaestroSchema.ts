/**
 * Schemas of orchestration ("Maestro") runs: the run request with its requirements and tools, and the run
 * object the service returns. Field names are the wire names.
 *
 * @since 0.1.0
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { isAbsoluteUrl } from "studio-effect-core/url/absoluteUrl"
import { showValue } from "studio-effect-core/validate/issues"
import type { RunModel } from "studio-effect-core/wire/models"
import {
  budgets,
  countWords,
  isTerminalStatus,
  isWebSearchUrl,
  labelsFilterModes,
  maxDescriptionWords,
  maxRequirements,
  maxRunModels,
  namedOutputTypes,
  responseLanguages,
  retrievalStrategies,
  runIncludes,
  runResponseLanguages,
  runRoles,
  runStatuses
} from "studio-effect-core/wire/runs"
import { type PathIssue, withWholeChecks } from "./internal/schema/issues.js"
import { openStruct } from "./internal/schema/open.js"
import { optional, withDefault } from "./internal/schema/optional.js"

// ---------------------------------------------------------------------------------------------------------
// conversation input
// ---------------------------------------------------------------------------------------------------------

/**
 * A turn of a conversation given to a run or an assistant.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RunMessage = Schema.Struct({
  role: Schema.Literals(runRoles),
  content: Schema.String
})

/**
 * @since 0.1.0
 * @category models
 */
export type RunMessage = typeof RunMessage.Type

const isTurnRole = (role: unknown): role is RunMessage["role"] => runRoles.some((turnRole) => turnRole === role)

/** Two turns of the same role in a row, reported at the second; turns with another role are reported alone. */
const alternatingIssues = (input: unknown): Array<PathIssue> => {
  const issues: Array<PathIssue> = []
  if (!Array.isArray(input)) return issues
  const roles = input.map((message: unknown) => Predicate.isReadonlyObject(message) ? message.role : undefined)
  for (let i = 1; i < roles.length; i++) {
    const role = roles[i]
    if (isTurnRole(role) && role === roles[i - 1]) {
      issues.push({
        path: [i, "role"],
        issue: `messages must alternate between user and assistant: two "${role}" turns in a row`
      })
    }
  }
  return issues
}

/**
 * A run's input: an instruction string (one user turn) or turns alternating between user and assistant.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RunInput = Schema.Union([
  Schema.String,
  withWholeChecks(Schema.Array(RunMessage), alternatingIssues)
])

// ---------------------------------------------------------------------------------------------------------
// requirements
// ---------------------------------------------------------------------------------------------------------

export {
  /** Words as a person counts them: runs of non-space characters. */
  countWords,
  /**
   * Whether a `web_search.urls` entry has one of the shapes the interface accepts: `https://<domain>`,
   * `<domain>`, `<domain>/<path>` or `<subdomain>.<domain>`.
   *
   * @since 0.1.0
   * @category predicates
   */
  isWebSearchUrl
} from "studio-effect-core/wire/runs"

/**
 * What a requirement asks for, in at most 128 words.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RequirementDescription = Schema.String.check(
  Schema.makeFilter((text) => {
    const words = countWords(text)
    return words <= maxDescriptionWords ||
      `a requirement description is at most ${maxDescriptionWords} words (got ${words})`
  })
)

/**
 * A condition the output should meet. A mandatory requirement that is not fully met makes the overall
 * score 0.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Requirement = Schema.Struct({
  name: Schema.NonEmptyString.annotate({ message: "a requirement needs a name" }),
  description: RequirementDescription,
  is_mandatory: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category models
 */
export type Requirement = typeof Requirement.Type

/**
 * A list of up to ten requirements of the given shape.
 *
 * @since 0.1.0
 * @category constructors
 */
export const requirementList = <S extends Schema.Top>(requirement: S) =>
  withWholeChecks(
    Schema.Array(requirement),
    (input) =>
      Array.isArray(input) && input.length > maxRequirements
        ? [{ path: [], issue: `at most ${maxRequirements} requirements per run (got ${input.length}): remove some` }]
        : []
  )

/**
 * Up to ten requirements.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Requirements = requirementList(Requirement)

// ---------------------------------------------------------------------------------------------------------
// tools
// ---------------------------------------------------------------------------------------------------------

const StringMap = Schema.Record(Schema.String, Schema.String)

const AbsoluteUrl = Schema.String.check(
  Schema.makeFilter((value) =>
    isAbsoluteUrl(value) || `${showValue(value)} is not a fully qualified URL: use https://host/path`
  )
)

const WebSearchUrl = Schema.String.check(
  Schema.makeFilter((value) =>
    isWebSearchUrl(value) ||
    `${
      showValue(value)
    } is not a web search filter: use https://<domain>, <domain>, <domain>/<path> or <subdomain>.<domain>`
  )
)

/**
 * An external tool server the engine may call.
 *
 * @since 0.1.0
 * @category schemas
 */
export const McpTool = Schema.Struct({
  type: Schema.Literal("mcp"),
  server_label: Schema.NonEmptyString.annotate({ message: "an mcp tool needs a server_label" }),
  server_url: AbsoluteUrl,
  headers: optional(StringMap),
  allowed_tools: optional(Schema.Array(Schema.String))
})

/**
 * An HTTP POST endpoint the engine may call.
 *
 * @since 0.1.0
 * @category schemas
 */
export const HttpTool = Schema.Struct({
  type: Schema.Literal("http"),
  function: Schema.Struct({
    name: optional(Schema.String),
    description: optional(Schema.String),
    parameters: optional(Schema.Record(Schema.String, Schema.Unknown))
  }),
  endpoint: Schema.Struct({
    url: AbsoluteUrl,
    headers: optional(StringMap)
  })
})

/**
 * How a file must match `labels`: `AND`, all of them (the service's default); `OR`, any.
 *
 * @since 0.1.0
 * @category schemas
 */
export const LabelsFilterMode = Schema.Literals(labelsFilterModes)

/**
 * What a file search returns of a file: `segments` (the service's default), `default`, `add_neighbors`
 * or `full_doc`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RetrievalStrategy = Schema.Literals(retrievalStrategies)

/**
 * The filters and retrieval options of a file search: `labels` (matched as `labels_filter_mode` says),
 * `labels_filter` (the service's query filter), `file_ids`, `path`, `retrieval_strategy`, `max_neighbors`
 * (a whole number, at least 0) and `retrieval_similarity_threshold`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FileSearchFilterFields = {
  labels: optional(Schema.Array(Schema.String)),
  labels_filter_mode: optional(LabelsFilterMode),
  labels_filter: optional(Schema.Record(Schema.String, Schema.Unknown)),
  file_ids: optional(Schema.Array(Schema.String)),
  path: optional(Schema.String),
  retrieval_strategy: optional(RetrievalStrategy),
  max_neighbors: optional(
    Schema.Number.check(
      Schema.makeFilter((n) => (Number.isSafeInteger(n) && n >= 0) || "max_neighbors is a whole number, at least 0")
    )
  ),
  retrieval_similarity_threshold: optional(
    Schema.Number.check(Schema.makeFilter((n) => Number.isFinite(n) || "retrieval_similarity_threshold is a number"))
  )
}

/**
 * Filters applied whenever the engine searches files.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FileSearchTool = Schema.Struct({
  type: Schema.Literal("file_search"),
  ...FileSearchFilterFields
})

/**
 * Filters applied whenever the engine searches the web.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebSearchTool = Schema.Struct({
  type: Schema.Literal("web_search"),
  urls: optional(Schema.Array(WebSearchUrl))
})

/**
 * A run tool, discriminated by `type`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RunTool = Schema.Union([McpTool, HttpTool, FileSearchTool, WebSearchTool])

/**
 * @since 0.1.0
 * @category models
 */
export type RunTool = typeof RunTool.Type

/**
 * Tools of a run; every `mcp` server_label is unique.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RunTools = withWholeChecks(Schema.Array(RunTool), (input) => {
  const issues: Array<PathIssue> = []
  if (!Array.isArray(input)) return issues
  const labels = new Set<string>()
  input.forEach((tool: unknown, index) => {
    if (!Predicate.isReadonlyObject(tool) || tool.type !== "mcp" || typeof tool.server_label !== "string") return
    if (labels.has(tool.server_label)) {
      issues.push({
        path: [index, "server_label"],
        issue: `server_label ${
          showValue(tool.server_label)
        } is used by another mcp tool of this run: give each server its own label`
      })
    }
    labels.add(tool.server_label)
  })
  return issues
})

/**
 * The older body shape that sets search filters through `tool_resources` instead of `tools`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ToolResources = Schema.Struct({
  file_search: optional(Schema.Struct(FileSearchFilterFields)),
  web_search: optional(Schema.Struct({
    urls: optional(Schema.Array(WebSearchUrl))
  }))
})

// ---------------------------------------------------------------------------------------------------------
// the request
// ---------------------------------------------------------------------------------------------------------

/**
 * The effort a run may spend: `low` (one step), `medium` (several), `high` (several strategies).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Budget = Schema.Literals(budgets)

/**
 * @since 0.1.0
 * @category models
 */
export type Budget = typeof Budget.Type

/**
 * Languages a run can answer in.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ResponseLanguage = Schema.Literals(responseLanguages)

/**
 * A run's `response_language`: a language, or `unset` (detect it from the input), which the service
 * stores on assistants and its clients send back.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RunResponseLanguage = Schema.Literals(runResponseLanguages)

/**
 * A run uses a single model.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RunModels = withWholeChecks(
  Schema.Array(Schema.String),
  (input) =>
    Array.isArray(input) && input.length > maxRunModels
      ? [{ path: [], issue: `a run uses a single model (got ${input.length}): keep one` }]
      : []
)

/**
 * Extra fields a run may return.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RunInclude = Schema.Literals(runIncludes)

/**
 * The fields a run and a stored assistant share, and that a call may override.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RunConfigurationFields = {
  system_prompt: optional(Schema.String),
  requirements: optional(Requirements),
  tools: optional(RunTools),
  models: optional(RunModels),
  budget: optional(Budget),
  response_language: optional(RunResponseLanguage)
}

/**
 * The structured output format of a run: a JSON Schema object of its result (the reference service answers
 * with a value of it), or the string `"json"` that the interface's samples send.
 *
 * @since 0.1.0
 * @category schemas
 */
export const OutputType = Schema.Union([
  Schema.Literals(namedOutputTypes),
  Schema.Record(Schema.String, Schema.Unknown)
]).annotate({ message: "output_type is an object or the string \"json\"" })

/**
 * How a run works: `verbose`, `structured_rag_enabled` and `dynamic_planning_enabled`, each `false` when
 * left out, as a run and an assistant run take them.
 *
 * @since 1.1.0
 * @category schemas
 */
export const RunOptionsFields = {
  verbose: optional(Schema.Boolean),
  structured_rag_enabled: optional(Schema.Boolean),
  dynamic_planning_enabled: optional(Schema.Boolean)
}

/**
 * A request to create a run.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RunRequest = Schema.Struct({
  input: optional(RunInput),
  ...RunConfigurationFields,
  output_type: optional(OutputType),
  include: optional(Schema.Array(RunInclude)),
  tool_resources: optional(ToolResources),
  ...RunOptionsFields
}).annotate({ identifier: "RunRequest" })

/**
 * A run request as callers write it. `models` offers the interface's run models for completion and takes
 * any other id as well (a third-party model of the caller's account).
 *
 * @since 0.1.0
 * @category models
 */
export type RunRequest = Omit<typeof RunRequest.Encoded, "models"> & {
  readonly models?: ReadonlyArray<RunModel> | undefined
}

// ---------------------------------------------------------------------------------------------------------
// the run
// ---------------------------------------------------------------------------------------------------------

/**
 * Where a run is: `in_progress`, then `completed`, `failed` or `requires_action` (or a newer status).
 *
 * @since 0.1.0
 * @category schemas
 */
export const RunStatus = Schema.Union([
  Schema.Literals(runStatuses),
  Schema.String
])

/**
 * How well one requirement was met.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RequirementScore = openStruct({
  name: Schema.String,
  description: Schema.optional(Schema.String),
  is_mandatory: Schema.optional(Schema.Boolean),
  score: Schema.Number,
  reason: Schema.optional(Schema.NullOr(Schema.String))
})

/**
 * Scores of a run against its requirements; `score` is the overall score.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RequirementsResult = openStruct({
  score: Schema.optional(Schema.Number),
  finish_reason: Schema.optional(Schema.NullOr(Schema.String)),
  requirements: withDefault(Schema.Array(RequirementScore), []),
  metadata: Schema.optional(Schema.Unknown)
})

/**
 * A web page a run drew on: its `url`, and as the service sends them, the `text` used, its relevance
 * `score` and an `id`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebSearchSource = openStruct({
  url: Schema.String,
  text: Schema.optional(Schema.NullOr(Schema.String)),
  score: Schema.optional(Schema.NullOr(Schema.Number)),
  id: Schema.optional(Schema.NullOr(Schema.String))
})

/**
 * A segment of a library file a run drew on.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FileSearchSource = openStruct({
  file_id: Schema.optional(Schema.String),
  file_name: Schema.optional(Schema.String),
  text: Schema.optional(Schema.NullOr(Schema.String)),
  score: Schema.optional(Schema.NullOr(Schema.Number)),
  order: Schema.optional(Schema.Number)
})

/**
 * Where a run's answer came from: web pages, library files, and the tool calls it made (each as the
 * service describes it).
 *
 * @since 0.1.0
 * @category schemas
 */
export const DataSources = openStruct({
  web_search: Schema.optional(Schema.NullOr(Schema.Array(WebSearchSource))),
  file_search: Schema.optional(Schema.NullOr(Schema.Array(FileSearchSource))),
  tool_calls: Schema.optional(Schema.NullOr(Schema.Array(Schema.Record(Schema.String, Schema.Unknown))))
})

/**
 * Why a run failed.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RunError = openStruct({ message: Schema.String })

/**
 * A run, as created, retrieved or polled; `result` is `null` until the run completes. Fields the schema
 * does not name are kept as the service sent them.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MaestroRun = openStruct({
  id: Schema.String,
  status: RunStatus,
  result: withDefault(Schema.Unknown, null),
  created_at: Schema.optional(Schema.NullOr(Schema.String)),
  data_sources: Schema.optional(Schema.NullOr(DataSources)),
  requirements_result: Schema.optional(Schema.NullOr(RequirementsResult)),
  error: Schema.optional(Schema.NullOr(RunError))
}).annotate({ identifier: "MaestroRun" })

/**
 * @since 0.1.0
 * @category models
 */
export interface MaestroRun extends Schema.Schema.Type<typeof MaestroRun> {}

/**
 * Whether a run has stopped changing.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isTerminal = (run: MaestroRun): boolean => isTerminalStatus(run.status)
