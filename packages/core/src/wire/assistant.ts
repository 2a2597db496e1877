/**
 * Stored assistants on the wire: the request to run one (Beta), the requests to create and modify one, as
 * they are once validated (every rule kept, an explicit `null` read as absent), the assistant, list and
 * deletion records as they are once decoded, and the literal tables. Field names are the wire names. Each
 * Effect line's schemas decode to these types and build their literals from these tables.
 *
 * The interface shows only the run request; the other shapes follow the real service's OpenAPI. The
 * fields an assistant shares with a run (system prompt, requirements, tools, model, budget, response
 * language) keep the same rules as a run's.
 *
 * @since 0.1.0
 */
import {
  type Budget,
  type JsonObject,
  namedOutputTypes,
  type OutputType,
  type Requirement,
  type RunConfigurationFields,
  type RunMessage,
  type RunOptionsFields,
  type RunResponseLanguage,
  runResponseLanguages,
  type StringMap,
  type ToolResources,
  unsetResponseLanguage
} from "./runs.js"

export { namedOutputTypes, type OutputType }

export {
  /**
   * A JSON object, given as is.
   *
   * @since 0.1.0
   * @category models
   */
  type JsonObject,
  /**
   * The response language a stored assistant has when it sets none: its runs detect the language of their
   * input.
   *
   * @since 0.1.0
   * @category tables
   */
  unsetResponseLanguage
}

// ---------------------------------------------------------------------------------------------------------
// requirements
// ---------------------------------------------------------------------------------------------------------

/**
 * A requirement in the shape the real service stores on an assistant: `id`, `title`, `description` (at
 * most `maxDescriptionWords` words) and `type`, each optional; it needs a title or a description.
 *
 * @since 0.1.0
 * @category models
 */
export interface ServiceRequirement {
  readonly id?: string | undefined
  readonly title?: string | undefined
  readonly description?: string | undefined
  readonly type?: string | undefined
}

/**
 * Whether a requirement of the service's shape says what it asks for: a non-empty title or description.
 *
 * @since 0.1.0
 * @category rules
 */
export const hasTitleOrDescription = (requirement: ServiceRequirement): boolean =>
  (requirement.title ?? "") !== "" || (requirement.description ?? "") !== ""

/**
 * A requirement of an assistant, in either shape: with a `name`, a run's requirement; without, the
 * service's assistant shape.
 *
 * @since 0.1.0
 * @category models
 */
export type AssistantRequirementInput = Requirement | ServiceRequirement

/**
 * The run requirement an assistant requirement stands for. A run's requirement is itself; one of the
 * service's shape becomes `name`: its `title` (else its `id`, else `requirement <n>` by position),
 * `description`: its `description` (else its `title`), and `is_mandatory`: whether its `type` is
 * `mandatory` (in any case).
 *
 * @since 0.1.0
 * @category conversions
 */
export const toRunRequirement = (requirement: AssistantRequirementInput, index: number): Requirement => {
  if ("name" in requirement) return requirement
  const title = requirement.title !== undefined && requirement.title !== "" ? requirement.title : undefined
  const id = requirement.id !== undefined && requirement.id !== "" ? requirement.id : undefined
  const description = requirement.description !== undefined && requirement.description !== ""
    ? requirement.description
    : title ?? ""
  return {
    name: title ?? id ?? `requirement ${index + 1}`,
    description,
    is_mandatory: requirement.type?.toLowerCase() === "mandatory"
  }
}

// ---------------------------------------------------------------------------------------------------------
// running an assistant
// ---------------------------------------------------------------------------------------------------------

/**
 * Extra fields an assistant run may return: `data_sources`, `requirements_result`, and with
 * `requirements_result.metadata` the metadata of the requirement scores.
 *
 * @since 0.1.0
 * @category tables
 */
export const assistantRunIncludes = ["data_sources", "requirements_result", "requirements_result.metadata"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type AssistantRunInclude = typeof assistantRunIncludes[number]

/**
 * A stored assistant's response languages: a run's, `unsetResponseLanguage` included.
 *
 * @since 0.1.0
 * @category tables
 */
export const assistantResponseLanguages = runResponseLanguages

/**
 * @since 0.1.0
 * @category models
 */
export type AssistantResponseLanguage = RunResponseLanguage

/**
 * The fields of a run's configuration as an assistant takes them: requirements in either shape, and the
 * search filters of the older `tool_resources` shape, which the assistant's runs use.
 *
 * @since 0.1.0
 * @category models
 */
export interface AssistantConfigurationFields extends Omit<RunConfigurationFields, "requirements"> {
  readonly requirements?: ReadonlyArray<AssistantRequirementInput> | undefined
  readonly tool_resources?: ToolResources | undefined
}

/**
 * A request to run a stored assistant: at least one `input` message. Any field of the assistant's
 * configuration sent here replaces that field of the stored assistant for this call only.
 *
 * @since 0.1.0
 * @category models
 */
export interface AssistantRunRequest extends AssistantConfigurationFields, RunOptionsFields {
  readonly input: ReadonlyArray<RunMessage>
  readonly output_type?: OutputType | undefined
  readonly include?: ReadonlyArray<AssistantRunInclude> | undefined
}

// ---------------------------------------------------------------------------------------------------------
// the assistant record
// ---------------------------------------------------------------------------------------------------------

/**
 * What an assistant is for: `default`, `chat` or `maestro`.
 *
 * @since 0.1.0
 * @category tables
 */
export const assistantTypes = ["default", "chat", "maestro"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type AssistantType = typeof assistantTypes[number]

/**
 * Who can see an assistant.
 *
 * @since 0.1.0
 * @category tables
 */
export const visibilities = ["public", "private"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type Visibility = typeof visibilities[number]

/**
 * What an assistant's runs favour: `cost` or `latency`.
 *
 * @since 0.1.0
 * @category tables
 */
export const optimizations = ["cost", "latency"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type Optimization = typeof optimizations[number]

/**
 * A question offered to start a conversation with an assistant.
 *
 * @since 0.1.0
 * @category models
 */
export interface StarterQuestion {
  readonly title: string
  readonly prompt: string
}

/**
 * An external workflow an assistant delegates to.
 *
 * @since 0.1.0
 * @category models
 */
export interface WorkflowConfig {
  readonly endpoint_url: string
  readonly headers?: StringMap | undefined
  readonly additional_params?: JsonObject | undefined
}

/**
 * A requirement as stored on an assistant, in either of the two shapes the service has used, with any
 * other field kept.
 *
 * @since 0.1.0
 * @category models
 */
export interface AssistantRequirement {
  readonly name?: string | undefined
  readonly description?: string | undefined
  readonly is_mandatory?: boolean | undefined
  readonly id?: string | undefined
  readonly title?: string | undefined
  readonly type?: string | undefined
  readonly [key: string]: unknown
}

/**
 * A tool as stored on an assistant: its `type` (`mcp`, `http`, `file_search`, `web_search`) and every
 * field the service returned, kept as is.
 *
 * @since 0.1.0
 * @category models
 */
export interface AssistantTool {
  readonly type: string
  readonly [key: string]: unknown
}

/**
 * A stored assistant, as created, retrieved, listed or modified.
 *
 * @since 0.1.0
 * @category models
 */
export interface Assistant {
  readonly id: string
  readonly object: string
  readonly name: string
  readonly description?: string | null | undefined
  readonly created_at: string
  readonly updated_at: string
  readonly optimization?: string | null | undefined
  readonly organization_id?: string | null | undefined
  readonly workspace_id?: string | null | undefined
  readonly user_id?: string | null | undefined
  readonly avatar?: string | null | undefined
  readonly is_archived?: boolean | undefined
  readonly models?: ReadonlyArray<string> | null | undefined
  readonly tools?: ReadonlyArray<AssistantTool> | null | undefined
  readonly tool_resources?: JsonObject | null | undefined
  readonly requirements?: ReadonlyArray<AssistantRequirement> | null | undefined
  readonly budget?: Budget | null | undefined
  readonly visibility?: Visibility | null | undefined
  readonly assistant_type?: AssistantType | null | undefined
  readonly response_language?: AssistantResponseLanguage | null | undefined
  readonly vibe_prompt?: string | null | undefined
  readonly starter_questions?: ReadonlyArray<StarterQuestion> | null | undefined
  readonly system_prompt?: string | null | undefined
  readonly workflow_config?: WorkflowConfig | null | undefined
  readonly config_overrides?: JsonObject | null | undefined
  readonly [key: string]: unknown
}

/**
 * The answer of listing assistants.
 *
 * @since 0.1.0
 * @category models
 */
export interface AssistantList {
  readonly results: ReadonlyArray<Assistant>
  readonly [key: string]: unknown
}

/**
 * The answer of deleting an assistant.
 *
 * @since 0.1.0
 * @category models
 */
export interface DeletedAssistant {
  readonly id: string
  readonly object: string
  readonly deleted: boolean
  readonly [key: string]: unknown
}

// ---------------------------------------------------------------------------------------------------------
// creating and modifying
// ---------------------------------------------------------------------------------------------------------

/**
 * The fields of an assistant that creating and modifying share.
 *
 * @since 0.1.0
 * @category models
 */
export interface AssistantDetailsFields extends AssistantConfigurationFields {
  readonly description?: string | undefined
  readonly avatar?: string | undefined
  readonly workflow_config?: WorkflowConfig | undefined
  readonly config_overrides?: JsonObject | undefined
}

/**
 * A request to create an assistant: a non-empty `name`, and the run configuration fields by the rules of a
 * run.
 *
 * @since 0.1.0
 * @category models
 */
export interface CreateAssistantRequest extends AssistantDetailsFields {
  readonly name: string
  readonly optimization?: string | undefined
  readonly assistant_type?: AssistantType | undefined
  readonly starter_questions?: ReadonlyArray<StarterQuestion> | undefined
}

/**
 * A request to modify an assistant: only the fields sent change; a `name` sent is non-empty.
 *
 * @since 0.1.0
 * @category models
 */
export interface ModifyAssistantRequest extends AssistantDetailsFields {
  readonly name?: string | undefined
  readonly optimization?: Optimization | undefined
  readonly is_archived?: boolean | undefined
  readonly visibility?: Visibility | undefined
}
