/**
 * The assistant store of the reference service, and the rule that merges a stored assistant with the
 * fields of a run call: a field sent in the call replaces that field for the call; every other setting
 * comes from the stored assistant.
 */
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
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
 * An assistant refused because its JSON would be longer than the store keeps.
 */
export class AssistantTooLarge extends Data.TaggedError("AssistantTooLarge")<{
  readonly size: number
  readonly limit: number
}> {
  override get message(): string {
    return `An assistant may hold at most ${this.limit} characters of JSON; this one would hold ${this.size}. ` +
      "Shorten its system prompt, requirements or tools."
  }
}

/** Limits of an assistant store. */
export interface AssistantStoreLimits {
  /** The most assistants kept; creating one more evicts the oldest. */
  readonly maxAssistants: number
  /** The longest stored assistant, in characters of its JSON. */
  readonly maxAssistantSize: number
}

/** The limits of a store when none are given: 500 assistants of at most 32 Ki characters of JSON each. */
export const defaultAssistantStoreLimits: AssistantStoreLimits = { maxAssistants: 500, maxAssistantSize: 32 * 1024 }

/** An assistant with its JSON, made once per write: the size check and `list` both use it. */
interface Entry {
  readonly assistant: Stored
  readonly json: string
}

/**
 * The assistants of one service: a map in creation order (the oldest first, evicted first when full),
 * changed in place so that a write costs the same whatever the store holds. Writes take one lock, so
 * concurrent updates of one assistant each see the previous one and none is lost; reads take none.
 */
export const makeAssistantStore = (ids: Ids, limits: AssistantStoreLimits = defaultAssistantStoreLimits) => {
  const assistants = new Map<string, Entry>()
  const lock = Effect.unsafeMakeSemaphore(1)
  const isoNow = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis).toISOString())

  const entryOf = (assistant: Stored): Effect.Effect<Entry, AssistantTooLarge> => {
    const json = JSON.stringify(assistant)
    return json.length > limits.maxAssistantSize
      ? Effect.fail(new AssistantTooLarge({ size: json.length, limit: limits.maxAssistantSize }))
      : Effect.succeed({ assistant, json })
  }

  const create = (request: typeof AssistantSchema.CreateAssistantRequest.Type) =>
    Effect.flatMap(isoNow, (now) =>
      entryOf(normalized({
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
      })).pipe(
        Effect.tap((entry) =>
          Effect.sync(() => {
            while (assistants.size >= Math.max(1, limits.maxAssistants)) {
              assistants.delete(assistants.keys().next().value!)
            }
            assistants.set(entry.assistant.id, entry)
          })
        ),
        Effect.map((entry) => entry.assistant),
        lock.withPermits(1)
      ))

  const retrieve = (id: string): Effect.Effect<Stored | undefined> => Effect.sync(() => assistants.get(id)?.assistant)

  /** The JSON of `{"results": [...]}`, in creation order: at most `maxAssistants` of bounded size. */
  const listJson = Effect.sync(() => {
    const parts: Array<string> = []
    for (const entry of assistants.values()) parts.push(entry.json)
    return `{"results":[${parts.join(",")}]}`
  })

  /**
   * Read-modify-write of one assistant, atomically: `f` gets the current value and returns the next one,
   * and no other change of the store runs in between. `undefined` when there is no such assistant.
   */
  const modify = <E, R>(
    id: string,
    f: (current: Stored) => Effect.Effect<Stored, E, R>
  ): Effect.Effect<Stored | undefined, E | AssistantTooLarge, R> =>
    Effect.gen(function*() {
      const current = assistants.get(id)
      if (current === undefined) return undefined
      const entry = yield* Effect.flatMap(f(current.assistant), (next) => entryOf(normalized({ ...next, id })))
      // set on an existing key keeps its place: an update does not make an assistant newer for eviction
      assistants.set(id, entry)
      return entry.assistant
    }).pipe(lock.withPermits(1))

  const update = (id: string, request: typeof AssistantSchema.ModifyAssistantRequest.Type) =>
    modify(id, (current) => Effect.map(isoNow, (now) => ({ ...current, ...request, id, updated_at: now })))

  const remove = (id: string) =>
    Effect.sync(() => assistants.delete(id) ? { object: "assistant", deleted: true, id } : undefined).pipe(
      lock.withPermits(1)
    )

  return { create, retrieve, listJson, modify, update, remove }
}
