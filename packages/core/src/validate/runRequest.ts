/**
 * The fast path of run request validation. A usual request (plain data, no `null`, no field the schema
 * does not list) is checked by hand against every rule of the run request and copied into exactly what the
 * schema decodes it to; anything else gives `undefined` and goes to the schema, which stays the one
 * definition of a run request and words the errors. A property test of each Effect line holds the two to
 * the same results. The parts a stored assistant shares with a run (requirements, tools, models, budget)
 * are checked here for the assistant requests too.
 */
import { isAbsoluteUrl } from "../url/absoluteUrl.js"
import {
  budgets,
  countWords,
  type FileSearchFilters,
  type FileSearchTool,
  type HttpTool,
  type HttpToolEndpoint,
  type HttpToolFunction,
  isWebSearchUrl,
  labelsFilterModes,
  maxDescriptionWords,
  maxRequirements,
  maxRunModels,
  type McpTool,
  namedOutputTypes,
  type OutputType,
  type Requirement,
  retrievalStrategies,
  runIncludes,
  type RunInput,
  type RunMessage,
  type RunOptionsFields,
  type RunRequest,
  runResponseLanguages,
  runRoles,
  type RunTool,
  type ToolResources,
  type WebSearchFilters,
  type WebSearchTool
} from "../wire/runs.js"
import {
  type Accept,
  acceptBoolean,
  acceptNonEmptyString,
  acceptString,
  acceptStringRecord,
  acceptStrings,
  acceptUnknownRecord,
  arrayOf,
  copyOptional,
  hasOnlyKeys,
  isPlainObject,
  type Mutable,
  oneOf
} from "./accept.js"

// ---------------------------------------------------------------------------------------------------------
// conversation input
// ---------------------------------------------------------------------------------------------------------

const runMessageKeys = new Set(["role", "content"])
const acceptRole = oneOf(runRoles)

const acceptRunMessage: Accept<RunMessage> = (value) => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, runMessageKeys)) return undefined
  const role = acceptRole(value.role)
  const content = acceptString(value.content)
  return role === undefined || content === undefined ? undefined : { role, content }
}

/** `Schema.Array(RunMessage)`, with no rule on the order of the turns. */
export const acceptRunMessages: Accept<Array<RunMessage>> = arrayOf(acceptRunMessage)

/** `RunInput`: an instruction, or turns alternating between user and assistant. */
const acceptRunInput: Accept<RunInput> = (value) => {
  if (typeof value === "string") return value
  const messages = acceptRunMessages(value)
  if (messages === undefined) return undefined
  for (let i = 1; i < messages.length; i++) {
    if (messages[i]!.role === messages[i - 1]!.role) return undefined
  }
  return messages
}

// ---------------------------------------------------------------------------------------------------------
// requirements
// ---------------------------------------------------------------------------------------------------------

/**
 * `RequirementDescription`: at most 128 words. Words are runs of non-space characters, so a text of n words
 * has at least 2n - 1 characters: one of at most 256 cannot have 129, and is not counted.
 */
export const acceptRequirementDescription: Accept<string> = (value) =>
  typeof value === "string" &&
    (value.length <= 2 * maxDescriptionWords || countWords(value) <= maxDescriptionWords)
    ? value
    : undefined

const requirementKeys = new Set(["name", "description", "is_mandatory"])

/** `Requirement`, a run's requirement. */
export const acceptRequirement: Accept<Requirement> = (value) => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, requirementKeys)) return undefined
  const name = acceptNonEmptyString(value.name)
  const description = acceptRequirementDescription(value.description)
  if (name === undefined || description === undefined) return undefined
  const decoded: Mutable<Requirement> = { name, description }
  return copyOptional(value, "is_mandatory", acceptBoolean, decoded) ? decoded : undefined
}

/** `requirementList(requirement)`: at most ten requirements. */
export const requirementListOf = <A>(requirement: Accept<A>): Accept<Array<A>> => {
  const accept = arrayOf(requirement)
  return (value) => Array.isArray(value) && value.length <= maxRequirements ? accept(value) : undefined
}

const acceptRequirements = requirementListOf(acceptRequirement)

// ---------------------------------------------------------------------------------------------------------
// tools
// ---------------------------------------------------------------------------------------------------------

const acceptAbsoluteUrl: Accept<string> = (value) =>
  typeof value === "string" && isAbsoluteUrl(value) ? value : undefined

const acceptWebSearchUrls = arrayOf((value) => typeof value === "string" && isWebSearchUrl(value) ? value : undefined)

const mcpToolKeys = new Set(["type", "server_label", "server_url", "headers", "allowed_tools"])

const acceptMcpTool = (tool: Readonly<Record<string, unknown>>): McpTool | undefined => {
  if (!hasOnlyKeys(tool, mcpToolKeys)) return undefined
  const serverLabel = acceptNonEmptyString(tool.server_label)
  const serverUrl = acceptAbsoluteUrl(tool.server_url)
  if (serverLabel === undefined || serverUrl === undefined) return undefined
  const decoded: Mutable<McpTool> = { type: "mcp", server_label: serverLabel, server_url: serverUrl }
  return copyOptional(tool, "headers", acceptStringRecord, decoded) &&
      copyOptional(tool, "allowed_tools", acceptStrings, decoded)
    ? decoded
    : undefined
}

const httpToolKeys = new Set(["type", "function", "endpoint"])
const httpFunctionKeys = new Set(["name", "description", "parameters"])
const endpointKeys = new Set(["url", "headers"])

const acceptHttpTool = (tool: Readonly<Record<string, unknown>>): HttpTool | undefined => {
  if (!hasOnlyKeys(tool, httpToolKeys)) return undefined
  const fn = tool.function
  const endpoint = tool.endpoint
  if (
    !isPlainObject(fn) || !hasOnlyKeys(fn, httpFunctionKeys) || !isPlainObject(endpoint) ||
    !hasOnlyKeys(endpoint, endpointKeys)
  ) {
    return undefined
  }
  const url = acceptAbsoluteUrl(endpoint.url)
  if (url === undefined) return undefined
  const decodedFunction: Mutable<HttpToolFunction> = {}
  const decodedEndpoint: Mutable<HttpToolEndpoint> = { url }
  return copyOptional(fn, "name", acceptString, decodedFunction) &&
      copyOptional(fn, "description", acceptString, decodedFunction) &&
      copyOptional(fn, "parameters", acceptUnknownRecord, decodedFunction) &&
      copyOptional(endpoint, "headers", acceptStringRecord, decodedEndpoint)
    ? { type: "http", function: decodedFunction, endpoint: decodedEndpoint }
    : undefined
}

const fileSearchFilterKeys = [
  "labels",
  "labels_filter_mode",
  "labels_filter",
  "file_ids",
  "path",
  "retrieval_strategy",
  "max_neighbors",
  "retrieval_similarity_threshold"
] as const
const fileSearchToolKeys = new Set(["type", ...fileSearchFilterKeys])

const acceptLabelsFilterMode = oneOf(labelsFilterModes)
const acceptRetrievalStrategy = oneOf(retrievalStrategies)

/** `max_neighbors`: a whole number, at least 0. */
export const acceptMaxNeighbors: Accept<number> = (value) =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined

const acceptFiniteNumber: Accept<number> = (value) =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined

/** Copies the filters and retrieval options of a file search into `decoded`; false when one is refused. */
const copyFileSearchFilters = (value: Readonly<Record<string, unknown>>, decoded: Mutable<FileSearchFilters>) =>
  copyOptional(value, "labels", acceptStrings, decoded) &&
  copyOptional(value, "labels_filter_mode", acceptLabelsFilterMode, decoded) &&
  copyOptional(value, "labels_filter", acceptUnknownRecord, decoded) &&
  copyOptional(value, "file_ids", acceptStrings, decoded) &&
  copyOptional(value, "path", acceptString, decoded) &&
  copyOptional(value, "retrieval_strategy", acceptRetrievalStrategy, decoded) &&
  copyOptional(value, "max_neighbors", acceptMaxNeighbors, decoded) &&
  copyOptional(value, "retrieval_similarity_threshold", acceptFiniteNumber, decoded)

const acceptFileSearchTool = (tool: Readonly<Record<string, unknown>>): FileSearchTool | undefined => {
  if (!hasOnlyKeys(tool, fileSearchToolKeys)) return undefined
  const decoded: Mutable<FileSearchTool> = { type: "file_search" }
  return copyFileSearchFilters(tool, decoded) ? decoded : undefined
}

const webSearchToolKeys = new Set(["type", "urls"])

const acceptWebSearchTool = (tool: Readonly<Record<string, unknown>>): WebSearchTool | undefined => {
  if (!hasOnlyKeys(tool, webSearchToolKeys)) return undefined
  const decoded: Mutable<WebSearchTool> = { type: "web_search" }
  return copyOptional(tool, "urls", acceptWebSearchUrls, decoded) ? decoded : undefined
}

const acceptRunTool: Accept<RunTool> = (value) => {
  if (!isPlainObject(value)) return undefined
  switch (value.type) {
    case "mcp":
      return acceptMcpTool(value)
    case "http":
      return acceptHttpTool(value)
    case "file_search":
      return acceptFileSearchTool(value)
    case "web_search":
      return acceptWebSearchTool(value)
    default:
      return undefined
  }
}

const acceptRunToolList = arrayOf(acceptRunTool)

/** `RunTools`: every mcp `server_label` used once. */
export const acceptRunTools: Accept<Array<RunTool>> = (value) => {
  const tools = acceptRunToolList(value)
  if (tools === undefined) return undefined
  const labels = new Set<string>()
  for (const tool of tools) {
    if (tool.type !== "mcp") continue
    if (labels.has(tool.server_label)) return undefined
    labels.add(tool.server_label)
  }
  return tools
}

const fileSearchFiltersKeys = new Set<string>(fileSearchFilterKeys)
const webSearchFilterKeys = new Set(["urls"])
const toolResourcesKeys = new Set(["file_search", "web_search"])

const acceptFileSearchFilters: Accept<FileSearchFilters> = (value) => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, fileSearchFiltersKeys)) return undefined
  const decoded: Mutable<FileSearchFilters> = {}
  return copyFileSearchFilters(value, decoded) ? decoded : undefined
}

const acceptWebSearchFilters: Accept<WebSearchFilters> = (value) => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, webSearchFilterKeys)) return undefined
  const decoded: Mutable<WebSearchFilters> = {}
  return copyOptional(value, "urls", acceptWebSearchUrls, decoded) ? decoded : undefined
}

const acceptToolResources: Accept<ToolResources> = (value) => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, toolResourcesKeys)) return undefined
  const decoded: Mutable<ToolResources> = {}
  return copyOptional(value, "file_search", acceptFileSearchFilters, decoded) &&
      copyOptional(value, "web_search", acceptWebSearchFilters, decoded)
    ? decoded
    : undefined
}

// ---------------------------------------------------------------------------------------------------------
// the request
// ---------------------------------------------------------------------------------------------------------

/** `RunModels`: a single model. */
export const acceptRunModels: Accept<Array<string>> = (value) => {
  const models = acceptStrings(value)
  return models !== undefined && models.length <= maxRunModels ? models : undefined
}

/** `Budget`. */
export const acceptBudget = oneOf(budgets)

/** `RunResponseLanguage`: a language, or `unset`. */
export const acceptResponseLanguage = oneOf(runResponseLanguages)
const acceptIncludes = arrayOf(oneOf(runIncludes))

const acceptNamedOutputType = oneOf(namedOutputTypes)

/** `OutputType`: the string `"json"` or an object. */
export const acceptOutputType: Accept<OutputType> = (value) =>
  acceptNamedOutputType(value) ?? acceptUnknownRecord(value)

/** The switches of `RunOptionsFields`, as a run and an assistant run take them. */
export const runOptionKeys = ["verbose", "structured_rag_enabled", "dynamic_planning_enabled"] as const

/** Copies the switches of `RunOptionsFields` that `input` has; `false` when one of them is not a boolean. */
export const copyRunOptions = (input: Readonly<Record<string, unknown>>, output: Mutable<RunOptionsFields>) =>
  runOptionKeys.every((key) => copyOptional(input, key, acceptBoolean, output))

const runRequestKeys = new Set([
  "input",
  "system_prompt",
  "requirements",
  "tools",
  "models",
  "budget",
  "response_language",
  "output_type",
  "include",
  "tool_resources",
  ...runOptionKeys
])

/**
 * The decoded run request, when `input` is a usual one and keeps every rule of the run request; otherwise
 * `undefined`, and the schema decides.
 */
export const acceptRunRequest = (input: unknown): RunRequest | undefined => {
  if (!isPlainObject(input) || !hasOnlyKeys(input, runRequestKeys)) return undefined
  const request: Mutable<RunRequest> = {}
  return copyOptional(input, "input", acceptRunInput, request) &&
      copyOptional(input, "system_prompt", acceptString, request) &&
      copyOptional(input, "requirements", acceptRequirements, request) &&
      copyOptional(input, "tools", acceptRunTools, request) &&
      copyOptional(input, "models", acceptRunModels, request) &&
      copyOptional(input, "budget", acceptBudget, request) &&
      copyOptional(input, "response_language", acceptResponseLanguage, request) &&
      copyOptional(input, "output_type", acceptOutputType, request) &&
      copyOptional(input, "include", acceptIncludes, request) &&
      copyOptional(input, "tool_resources", acceptToolResources, request) &&
      copyRunOptions(input, request)
    ? request
    : undefined
}
