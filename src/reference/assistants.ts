/**
 * The assistant store of the reference service, and the rule that merges a stored assistant with the
 * fields of a run call: a field sent in the call replaces that field for the call; every other setting
 * comes from the stored assistant.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as AssistantSchema from "../AssistantSchema.js"
import type { Ids } from "./ids.js"
import type { RunConfiguration } from "./runs.js"

type Stored = Record<string, unknown> & { readonly id: string }

/** The fields an assistant shares with a run, and that a call may override. */
export const overridableFields = [
  "system_prompt",
  "requirements",
  "tools",
  "models",
  "budget",
  "response_language"
] as const

/** The stored assistant's configuration with the call's fields taking precedence, field by field. */
export const mergeRunConfiguration = (
  assistant: Readonly<Record<string, unknown>>,
  call: typeof AssistantSchema.AssistantRunRequest.Type
): RunConfiguration => {
  const merged: Record<string, unknown> = {}
  for (const field of overridableFields) {
    const value = call[field] !== undefined ? call[field] : assistant[field]
    if (value !== undefined && value !== null) merged[field] = value
  }
  return { ...merged, input: call.input, include: call.include ?? [] } as RunConfiguration
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

const normalized = (assistant: Stored): Stored => {
  const out: Stored = { ...assistant }
  if (out.response_language === null) out.response_language = "unset"
  if (Array.isArray(out.tools)) out.tools = out.tools.map((tool) => storedTool(asRecord(tool)))
  return out
}

/** The assistants of one service. */
export const makeAssistantStore = (ids: Ids) => {
  const assistants = new Map<string, Stored>()
  const isoNow = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis).toISOString())

  const create = (request: typeof AssistantSchema.CreateAssistantRequest.Type) =>
    Effect.map(isoNow, (now) => {
      const assistant: Stored = {
        budget: "medium",
        visibility: "public",
        assistant_type: "default",
        response_language: "unset",
        is_archived: false,
        ...request,
        id: ids.uuid(),
        object: "assistant",
        organization_id: "reference-organization",
        user_id: "reference-user",
        created_at: now,
        updated_at: now
      }
      const stored = normalized(assistant)
      assistants.set(stored.id, stored)
      return stored
    })

  const retrieve = (id: string): Effect.Effect<Stored | undefined> => Effect.sync(() => assistants.get(id))

  const list = Effect.sync(() => ({ results: [...assistants.values()] }))

  const update = (id: string, request: typeof AssistantSchema.ModifyAssistantRequest.Type) =>
    Effect.flatMap(isoNow, (now) =>
      Effect.sync(() => {
        const current = assistants.get(id)
        if (current === undefined) return undefined
        const next = normalized({ ...current, ...request, id, updated_at: now })
        assistants.set(id, next)
        return next
      }))

  const remove = (id: string) =>
    Effect.sync(() => assistants.delete(id) ? { object: "assistant", deleted: true, id } : undefined)

  return { create, retrieve, list, update, remove }
}
