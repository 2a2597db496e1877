/**
 * The assistant store of the reference service, and the rule that merges a stored assistant with the
 * fields of a run call: a field sent in the call replaces that field for the call; every other setting
 * comes from the stored assistant.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as SynchronizedRef from "effect/SynchronizedRef"
import * as AssistantSchema from "../AssistantSchema.js"
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

/**
 * The stored assistant's configuration with the call's fields taking precedence, field by field.
 * Requirements in the service's assistant shape (`title`, `type`) become a run's (`name`, `is_mandatory`).
 */
export const mergeRunConfiguration = (
  assistant: Readonly<Record<string, unknown>>,
  call: typeof AssistantSchema.AssistantRunRequest.Type
): RunConfiguration => {
  const merged: Record<string, unknown> = {}
  for (const field of overridableFields) {
    const value = call[field] !== undefined ? call[field] : assistant[field]
    if (value !== undefined && value !== null) merged[field] = value
  }
  if (Array.isArray(merged.requirements)) {
    merged.requirements = (merged.requirements as ReadonlyArray<AssistantSchema.ServiceRequirement>).map(
      AssistantSchema.toRunRequirement
    )
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

/**
 * The assistants of one service. The store is one `SynchronizedRef` of an immutable map (copied on write,
 * in insertion order for `list`); every change is a single `modify`, so concurrent updates of one assistant
 * each see the previous one and none is lost.
 */
export const makeAssistantStore = (ids: Ids) => {
  const store = SynchronizedRef.unsafeMake<ReadonlyMap<string, Stored>>(new Map())
  const isoNow = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis).toISOString())

  const create = (request: typeof AssistantSchema.CreateAssistantRequest.Type) =>
    Effect.flatMap(isoNow, (now) => {
      const stored = normalized({
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
      })
      return SynchronizedRef.modify(store, (assistants) => [stored, new Map(assistants).set(stored.id, stored)])
    })

  const retrieve = (id: string): Effect.Effect<Stored | undefined> =>
    Effect.map(SynchronizedRef.get(store), (assistants) => assistants.get(id))

  const list = Effect.map(SynchronizedRef.get(store), (assistants) => ({ results: [...assistants.values()] }))

  /**
   * Read-modify-write of one assistant, atomically: `f` gets the current value and returns the next one,
   * and no other change of the store runs in between. `undefined` when there is no such assistant.
   */
  const modify = <E, R>(
    id: string,
    f: (current: Stored) => Effect.Effect<Stored, E, R>
  ): Effect.Effect<Stored | undefined, E, R> =>
    SynchronizedRef.modifyEffect(store, (assistants) => {
      const current = assistants.get(id)
      if (current === undefined) return Effect.succeed([undefined, assistants] as const)
      return Effect.map(f(current), (next) => {
        const stored = normalized({ ...next, id })
        return [stored, new Map(assistants).set(id, stored)] as const
      })
    })

  const update = (id: string, request: typeof AssistantSchema.ModifyAssistantRequest.Type) =>
    modify(id, (current) => Effect.map(isoNow, (now) => ({ ...current, ...request, id, updated_at: now })))

  const remove = (id: string) =>
    SynchronizedRef.modify(store, (assistants) => {
      if (!assistants.has(id)) return [undefined, assistants]
      const next = new Map(assistants)
      next.delete(id)
      return [{ object: "assistant", deleted: true, id }, next]
    })

  return { create, retrieve, list, modify, update, remove }
}
