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
      if (assistant.response_language === null) assistant.response_language = "unset"
      assistants.set(assistant.id, assistant)
      return assistant
    })

  const retrieve = (id: string): Effect.Effect<Stored | undefined> => Effect.sync(() => assistants.get(id))

  const list = Effect.sync(() => ({ results: [...assistants.values()] }))

  const update = (id: string, request: typeof AssistantSchema.ModifyAssistantRequest.Type) =>
    Effect.flatMap(isoNow, (now) =>
      Effect.sync(() => {
        const current = assistants.get(id)
        if (current === undefined) return undefined
        const next: Stored = { ...current, ...request, id, updated_at: now }
        if (next.response_language === null) next.response_language = "unset"
        assistants.set(id, next)
        return next
      }))

  const remove = (id: string) =>
    Effect.sync(() => assistants.delete(id) ? { object: "assistant", deleted: true, id } : undefined)

  return { create, retrieve, list, update, remove }
}
