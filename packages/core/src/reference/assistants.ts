/**
 * The assistant store of the reference service, and the rule that merges a stored assistant with the
 * fields of a run call: a field sent in the call replaces that field for the call; every other setting
 * comes from the stored assistant.
 */
import {
  assistantRunIncludes,
  type AssistantRunRequest,
  type CreateAssistantRequest,
  type ModifyAssistantRequest,
  type ServiceRequirement,
  toRunRequirement,
  unsetResponseLanguage
} from "../wire/assistant.js"
import type { Ids } from "./ids.js"
import type { RunConfiguration } from "./runs.js"

/** An assistant as the store keeps and returns it. */
export type StoredAssistant = Record<string, unknown> & { readonly id: string }

/**
 * The fields an assistant shares with a run, and that a call may override; `tool_resources` (the older
 * shape of the search filters) is used by the assistant's runs as a run's is.
 */
export const overridableFields = [
  "system_prompt",
  "requirements",
  "tools",
  "tool_resources",
  "models",
  "budget",
  "response_language"
] as const

/**
 * The stored assistant's configuration with the call's fields taking precedence, field by field.
 * Requirements in the service's assistant shape (`title`, `type`) become a run's (`name`, `is_mandatory`).
 */
export const mergeRunConfiguration = (
  assistant: Readonly<Record<string, unknown>>,
  call: AssistantRunRequest
): RunConfiguration => {
  const merged: Record<string, unknown> = {}
  for (const field of overridableFields) {
    const value = call[field] !== undefined ? call[field] : assistant[field]
    if (value !== undefined && value !== null) merged[field] = value
  }
  if (Array.isArray(merged.requirements)) {
    merged.requirements = (merged.requirements as ReadonlyArray<ServiceRequirement>).map(toRunRequirement)
  }
  // the service returns every extra field when the call names none, as its `include` defaults to all of them
  return {
    ...merged,
    input: call.input,
    include: call.include ?? assistantRunIncludes,
    ...(call.output_type === undefined ? {} : { output_type: call.output_type })
  } as RunConfiguration
}

const asRecord = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {}

/**
 * A tool as the service stores it: an http tool's function gets the fields the service always returns
 * (name, description, and parameters with `type`, `properties` and `required`, each property with a type
 * and a description).
 */
const storedTool = (tool: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  if (tool.type !== "http") return { ...tool }
  const fn = asRecord(tool.function)
  const parameters = asRecord(fn.parameters)
  const properties = Object.fromEntries(
    Object.entries(asRecord(parameters.properties)).map(([name, property]) => {
      const p = asRecord(property)
      return [name, {
        ...p,
        type: typeof p.type === "string" ? p.type : "string",
        description: typeof p.description === "string" ? p.description : ""
      }]
    })
  )
  return {
    ...tool,
    function: {
      ...fn,
      name: typeof fn.name === "string" ? fn.name : "",
      description: typeof fn.description === "string" ? fn.description : "",
      parameters: {
        ...parameters,
        type: "object",
        properties,
        required: Array.isArray(parameters.required) ? parameters.required : []
      }
    }
  }
}

const normalized = (assistant: StoredAssistant): StoredAssistant => {
  const out: StoredAssistant = { ...assistant }
  if (out.response_language === null) out.response_language = unsetResponseLanguage
  if (Array.isArray(out.tools)) out.tools = out.tools.map((tool) => storedTool(asRecord(tool)))
  return out
}

/** An assistant refused because its JSON would be longer than the store keeps. */
export interface AssistantTooLarge {
  readonly _tag: "AssistantTooLarge"
  readonly size: number
  readonly limit: number
}

/** What an assistant refused as too large is told. */
export const assistantTooLargeMessage = ({ limit, size }: Omit<AssistantTooLarge, "_tag">): string =>
  `An assistant may hold at most ${limit} characters of JSON; this one would hold ${size}. ` +
  "Shorten its system prompt, requirements or tools."

/** A write of the store: the assistant as stored, or why it was refused. */
export type AssistantWrite =
  | { readonly _tag: "Stored"; readonly assistant: StoredAssistant }
  | AssistantTooLarge

/** Limits of an assistant store. */
export interface AssistantStoreLimits {
  /** The most assistants kept; creating one more evicts the oldest. */
  readonly maxAssistants: number
  /** The longest stored assistant, in characters of its JSON. */
  readonly maxAssistantSize: number
}

/** The limits of a store when none are given: 500 assistants of at most 32 Ki characters of JSON each. */
export const defaultAssistantStoreLimits: AssistantStoreLimits = { maxAssistants: 500, maxAssistantSize: 32 * 1024 }

/** An assistant with its JSON, made once per write: the size check and `listJson` both use it. */
interface Entry {
  readonly assistant: StoredAssistant
  readonly json: string
}

/** The workspace of every assistant of the reference service: a key's assistants are all in one workspace. */
export const referenceWorkspace = "reference-workspace"

/** An ISO 8601 date of epoch milliseconds. */
const iso = (millis: number): string => new Date(millis).toISOString()

/**
 * The assistants of one service: a map in creation order (the oldest first, evicted first when full),
 * changed in place so that a write costs the same whatever the store holds. Each write is whole by itself;
 * a caller that reads an assistant and writes it back runs the two with no other write in between. Times
 * are epoch milliseconds, given by the caller.
 */
export const makeAssistantStore = (ids: Ids, limits: AssistantStoreLimits = defaultAssistantStoreLimits) => {
  const assistants = new Map<string, Entry>()

  const entryOf = (assistant: StoredAssistant): Entry | AssistantTooLarge => {
    const json = JSON.stringify(assistant)
    return json.length > limits.maxAssistantSize
      ? { _tag: "AssistantTooLarge", size: json.length, limit: limits.maxAssistantSize }
      : { assistant, json }
  }

  /** Stores a new assistant made at `now`, with the service's defaults for the fields the request leaves out. */
  const create = (request: CreateAssistantRequest, now: number): AssistantWrite => {
    const date = iso(now)
    const entry = entryOf(normalized({
      budget: "medium",
      visibility: "public",
      assistant_type: "default",
      response_language: unsetResponseLanguage,
      is_archived: false,
      ...request,
      id: ids.uuid(),
      object: "assistant",
      organization_id: "reference-organization",
      workspace_id: referenceWorkspace,
      user_id: "reference-user",
      created_at: date,
      updated_at: date
    }))
    if ("_tag" in entry) return entry
    while (assistants.size >= Math.max(1, limits.maxAssistants)) {
      assistants.delete(assistants.keys().next().value!)
    }
    assistants.set(entry.assistant.id, entry)
    return { _tag: "Stored", assistant: entry.assistant }
  }

  const retrieve = (id: string): StoredAssistant | undefined => assistants.get(id)?.assistant

  /**
   * The JSON of `{"results": [...]}`, in creation order: at most `maxAssistants` of bounded size; with
   * `workspaceIds` (not empty), only the assistants of those workspaces.
   */
  const listJson = (workspaceIds: ReadonlyArray<string> = []): string => {
    const parts: Array<string> = []
    const workspaces = new Set(workspaceIds)
    for (const entry of assistants.values()) {
      if (workspaces.size === 0 || workspaces.has(String(entry.assistant.workspace_id))) parts.push(entry.json)
    }
    return `{"results":[${parts.join(",")}]}`
  }

  /**
   * Stores `next` as the assistant `id`, which keeps its place in the store: an update does not make an
   * assistant newer for eviction. `undefined` when there is no such assistant.
   */
  const replace = (id: string, next: StoredAssistant): AssistantWrite | undefined => {
    if (!assistants.has(id)) return undefined
    const entry = entryOf(normalized({ ...next, id }))
    if ("_tag" in entry) return entry
    assistants.set(id, entry)
    return { _tag: "Stored", assistant: entry.assistant }
  }

  const remove = (id: string) => assistants.delete(id) ? { object: "assistant", deleted: true, id } : undefined

  return { create, retrieve, listJson, replace, remove }
}

/** `current` with the fields of `request` changed at `now`. */
export const updated = (current: StoredAssistant, request: ModifyAssistantRequest, now: number): StoredAssistant => ({
  ...current,
  ...request,
  id: current.id,
  updated_at: iso(now)
})
