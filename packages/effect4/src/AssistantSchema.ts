/**
 * Schemas of stored assistants: the request to run one (Beta), the requests to create and modify one, and
 * the assistant, list and deletion records the service returns. Field names are the wire names.
 *
 * The interface shows only the run request; the other shapes follow the real service's OpenAPI. The
 * fields an assistant shares with a run (system prompt, requirements, tools, model, budget, response
 * language) are checked by the same rules as a run's.
 *
 * @since 0.1.0
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import * as SchemaParser from "effect/SchemaParser"
import {
  assistantRunIncludes,
  assistantTypes,
  hasTitleOrDescription,
  optimizations,
  visibilities
} from "studio-effect-core/wire/assistant"
import { openStruct } from "./internal/schema/open.js"
import { optional, withDefault } from "./internal/schema/optional.js"
import {
  Budget,
  OutputType,
  Requirement,
  RequirementDescription,
  requirementList,
  RunConfigurationFields,
  RunMessage,
  RunOptionsFields,
  RunResponseLanguage,
  ToolResources
} from "./MaestroSchema.js"

export {
  /**
   * The structured output format of an assistant run: a JSON Schema object of its result, or `"json"`.
   *
   * @since 0.1.0
   * @category schemas
   */
  OutputType
} from "./MaestroSchema.js"

// ---------------------------------------------------------------------------------------------------------
// requirements
// ---------------------------------------------------------------------------------------------------------

/**
 * A requirement in the shape the real service stores on an assistant: `id`, `title`, `description` and
 * `type`, each optional; it needs a title or a description.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ServiceRequirement = Schema.Struct({
  id: optional(Schema.String),
  title: optional(Schema.String),
  description: optional(RequirementDescription),
  type: optional(Schema.String)
}).check(
  Schema.makeFilter((requirement) =>
    hasTitleOrDescription(requirement) || {
      path: ["title"],
      issue: "a requirement needs a title or a description"
    }
  )
)

/**
 * @since 0.1.0
 * @category models
 */
export type ServiceRequirement = typeof ServiceRequirement.Type

/**
 * A requirement of an assistant, in either shape: with a `name`, a run's requirement
 * (`{ name, description, is_mandatory? }`); without, the service's assistant shape
 * (`{ id?, title?, description?, type? }`). Each is checked by its own rules, so a mistake is reported
 * once, against the shape the caller used.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AssistantRequirementInput = Schema.declareConstructor<
  Requirement | ServiceRequirement,
  typeof Requirement.Encoded | typeof ServiceRequirement.Encoded
>()(
  [Requirement, ServiceRequirement],
  ([run, service]) => (input, _self, options) =>
    Predicate.isReadonlyObject(input) && "name" in input
      ? SchemaParser.decodeUnknownEffect(run)(input, options)
      : SchemaParser.decodeUnknownEffect(service)(input, options),
  { title: "a requirement" }
)

/**
 * Up to ten requirements of an assistant, in either shape (they may be mixed).
 *
 * @since 0.1.0
 * @category schemas
 */
export const AssistantRequirements = requirementList(AssistantRequirementInput)

export {
  /**
   * The run requirement an assistant requirement stands for. A run's requirement is itself; one of the
   * service's shape becomes `name`: its `title` (else its `id`, else `requirement <n>` by position),
   * `description`: its `description` (else its `title`), and `is_mandatory`: whether its `type` is
   * `mandatory` (in any case).
   *
   * @since 0.1.0
   * @category conversions
   */
  toRunRequirement
} from "studio-effect-core/wire/assistant"

// ---------------------------------------------------------------------------------------------------------
// running an assistant
// ---------------------------------------------------------------------------------------------------------

/**
 * Extra fields an assistant run may return: `data_sources`, `requirements_result`, and with
 * `requirements_result.metadata` the metadata of the requirement scores.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AssistantRunInclude = Schema.Literals(assistantRunIncludes)

/**
 * @since 0.1.0
 * @category models
 */
export type AssistantRunInclude = typeof AssistantRunInclude.Type

/**
 * The conversation given to an assistant run: at least one message.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AssistantRunInput = Schema.Array(RunMessage).check(
  Schema.makeFilter((messages) => messages.length > 0 || "an assistant run needs at least one input message")
)

/**
 * A stored assistant's response language; `unset` detects it from the input.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AssistantResponseLanguage = RunResponseLanguage

/**
 * A request to run a stored assistant. `input` is required. Any field of the assistant's configuration
 * sent here (`system_prompt`, `requirements`, `tools`, `models`, `budget`, `response_language`) replaces
 * that field of the stored assistant for this call only; every other setting comes from the assistant.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AssistantRunRequest = Schema.Struct({
  input: AssistantRunInput,
  output_type: optional(OutputType),
  include: optional(Schema.Array(AssistantRunInclude)),
  ...RunConfigurationFields,
  ...RunOptionsFields,
  requirements: optional(AssistantRequirements),
  tool_resources: optional(ToolResources)
}).annotate({ identifier: "AssistantRunRequest" })

/**
 * @since 0.1.0
 * @category models
 */
export type AssistantRunRequest = typeof AssistantRunRequest.Encoded

// ---------------------------------------------------------------------------------------------------------
// the assistant record
// ---------------------------------------------------------------------------------------------------------

const JsonObject = Schema.Record(Schema.String, Schema.Unknown)

/**
 * What an assistant is for: `default`, `chat` or `maestro`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AssistantType = Schema.Literals(assistantTypes)

/**
 * Who can see an assistant.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Visibility = Schema.Literals(visibilities)

/**
 * What an assistant's runs favour: `cost` or `latency`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Optimization = Schema.Literals(optimizations)

/**
 * A question offered to start a conversation with an assistant.
 *
 * @since 0.1.0
 * @category schemas
 */
export const StarterQuestion = Schema.Struct({
  title: Schema.String,
  prompt: Schema.String
})

/**
 * An external workflow an assistant delegates to.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WorkflowConfig = Schema.Struct({
  endpoint_url: Schema.String,
  headers: optional(Schema.Record(Schema.String, Schema.String)),
  additional_params: optional(JsonObject)
})

/**
 * A requirement as stored on an assistant. The service has used two shapes (`name`, `description`,
 * `is_mandatory` as in a run, and `id`, `title`, `description`, `type`); both are read, and fields not
 * listed here are kept.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AssistantRequirement = Schema.StructWithRest(
  Schema.Struct({
    name: Schema.optional(Schema.String),
    description: Schema.optional(Schema.String),
    is_mandatory: Schema.optional(Schema.Boolean),
    id: Schema.optional(Schema.String),
    title: Schema.optional(Schema.String),
    type: Schema.optional(Schema.String)
  }),
  [Schema.Record(Schema.String, Schema.Unknown)]
)

/**
 * A tool as stored on an assistant: its `type` (`mcp`, `http`, `file_search`, `web_search`) and every
 * field the service returned, kept as is.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AssistantTool = Schema.StructWithRest(
  Schema.Struct({ type: Schema.String }),
  [Schema.Record(Schema.String, Schema.Unknown)]
)

/**
 * A stored assistant, as created, retrieved, listed or modified.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Assistant = openStruct({
  id: Schema.String,
  object: withDefault(Schema.String, "assistant"),
  name: Schema.String,
  description: Schema.optional(Schema.NullOr(Schema.String)),
  created_at: Schema.String,
  updated_at: Schema.String,
  optimization: Schema.optional(Schema.NullOr(Schema.String)),
  organization_id: Schema.optional(Schema.NullOr(Schema.String)),
  workspace_id: Schema.optional(Schema.NullOr(Schema.String)),
  user_id: Schema.optional(Schema.NullOr(Schema.String)),
  avatar: Schema.optional(Schema.NullOr(Schema.String)),
  is_archived: Schema.optional(Schema.Boolean),
  models: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  tools: Schema.optional(Schema.NullOr(Schema.Array(AssistantTool))),
  tool_resources: Schema.optional(Schema.NullOr(JsonObject)),
  requirements: Schema.optional(Schema.NullOr(Schema.Array(AssistantRequirement))),
  budget: Schema.optional(Schema.NullOr(Budget)),
  visibility: Schema.optional(Schema.NullOr(Visibility)),
  assistant_type: Schema.optional(Schema.NullOr(AssistantType)),
  response_language: Schema.optional(Schema.NullOr(AssistantResponseLanguage)),
  vibe_prompt: Schema.optional(Schema.NullOr(Schema.String)),
  starter_questions: Schema.optional(Schema.NullOr(Schema.Array(StarterQuestion))),
  system_prompt: Schema.optional(Schema.NullOr(Schema.String)),
  workflow_config: Schema.optional(Schema.NullOr(WorkflowConfig)),
  config_overrides: Schema.optional(Schema.NullOr(JsonObject))
}).annotate({ identifier: "Assistant" })

/**
 * @since 0.1.0
 * @category models
 */
export interface Assistant extends Schema.Schema.Type<typeof Assistant> {}

/**
 * The answer of listing assistants.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AssistantList = openStruct({
  results: Schema.Array(Assistant)
}).annotate({ identifier: "AssistantList" })

/**
 * @since 0.1.0
 * @category models
 */
export interface AssistantList extends Schema.Schema.Type<typeof AssistantList> {}

/**
 * The answer of deleting an assistant.
 *
 * @since 0.1.0
 * @category schemas
 */
export const DeletedAssistant = openStruct({
  id: Schema.String,
  object: withDefault(Schema.String, "assistant"),
  deleted: withDefault(Schema.Boolean, true)
}).annotate({ identifier: "DeletedAssistant" })

/**
 * @since 0.1.0
 * @category models
 */
export interface DeletedAssistant extends Schema.Schema.Type<typeof DeletedAssistant> {}

// ---------------------------------------------------------------------------------------------------------
// creating and modifying
// ---------------------------------------------------------------------------------------------------------

const AssistantDetailsFields = {
  description: optional(Schema.String),
  avatar: optional(Schema.String),
  ...RunConfigurationFields,
  requirements: optional(AssistantRequirements),
  tool_resources: optional(ToolResources),
  workflow_config: optional(WorkflowConfig),
  config_overrides: optional(JsonObject)
}

/**
 * A request to create an assistant. `name` is required; the run configuration fields follow the rules of
 * a run (at most 10 requirements, a single model, ...).
 *
 * @since 0.1.0
 * @category schemas
 */
export const CreateAssistantRequest = Schema.Struct({
  name: Schema.NonEmptyString.annotate({ message: "an assistant needs a name" }),
  optimization: optional(Schema.String),
  assistant_type: optional(AssistantType),
  starter_questions: optional(Schema.Array(StarterQuestion)),
  ...AssistantDetailsFields
}).annotate({ identifier: "CreateAssistantRequest" })

/**
 * @since 0.1.0
 * @category models
 */
export type CreateAssistantRequest = typeof CreateAssistantRequest.Encoded

/**
 * A request to modify an assistant: only the fields sent change.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ModifyAssistantRequest = Schema.Struct({
  name: optional(Schema.NonEmptyString.annotate({ message: "an assistant's name cannot be empty" })),
  optimization: optional(Optimization),
  is_archived: optional(Schema.Boolean),
  visibility: optional(Visibility),
  ...AssistantDetailsFields
}).annotate({ identifier: "ModifyAssistantRequest" })

/**
 * @since 0.1.0
 * @category models
 */
export type ModifyAssistantRequest = typeof ModifyAssistantRequest.Encoded
