/**
 * The fast paths of the requests to run and to create a stored assistant. A usual request (plain data, no
 * `null`, no field the schema does not list) is checked by hand against every rule of
 * `AssistantRunRequest` or `CreateAssistantRequest` and copied into exactly what the schema decodes it
 * to; anything else gives `undefined` and goes to the schema, which stays the one definition of the request
 * and words the errors. A property test of each Effect line holds the two to the same results.
 */
import {
  type AssistantRequirementInput,
  assistantRunIncludes,
  type AssistantRunRequest,
  assistantTypes,
  type CreateAssistantRequest,
  hasTitleOrDescription,
  type ServiceRequirement,
  type StarterQuestion,
  type WorkflowConfig
} from "../wire/assistant.js"
import type { RunMessage } from "../wire/runs.js"
import {
  type Accept,
  acceptNonEmptyString,
  acceptString,
  acceptStringRecord,
  acceptUnknownRecord,
  arrayOf,
  copyOptional,
  hasOnlyKeys,
  isPlainObject,
  type Mutable,
  oneOf
} from "./accept.js"
import {
  acceptBudget,
  acceptOutputType,
  acceptRequirement,
  acceptRequirementDescription,
  acceptResponseLanguage,
  acceptRunMessages,
  acceptRunModels,
  acceptRunTools,
  copyRunOptions,
  requirementListOf,
  runOptionKeys
} from "./runRequest.js"

// ---------------------------------------------------------------------------------------------------------
// requirements
// ---------------------------------------------------------------------------------------------------------

const serviceRequirementKeys = new Set(["id", "title", "description", "type"])

const acceptServiceRequirement = (value: Readonly<Record<string, unknown>>): ServiceRequirement | undefined => {
  if (!hasOnlyKeys(value, serviceRequirementKeys)) return undefined
  const decoded: Mutable<ServiceRequirement> = {}
  const fieldsValid = copyOptional(value, "id", acceptString, decoded) &&
    copyOptional(value, "title", acceptString, decoded) &&
    copyOptional(value, "description", acceptRequirementDescription, decoded) &&
    copyOptional(value, "type", acceptString, decoded)
  return fieldsValid && hasTitleOrDescription(decoded) ? decoded : undefined
}

/** `AssistantRequirementInput`: a run's requirement when it has a `name`, else the service's shape. */
const acceptAssistantRequirement: Accept<AssistantRequirementInput> = (value) => {
  if (!isPlainObject(value)) return undefined
  return Object.hasOwn(value, "name") ? acceptRequirement(value) : acceptServiceRequirement(value)
}

const acceptAssistantRequirements = requirementListOf(acceptAssistantRequirement)

// ---------------------------------------------------------------------------------------------------------
// running an assistant
// ---------------------------------------------------------------------------------------------------------

/** `AssistantRunInput`: at least one message. */
const acceptInput: Accept<Array<RunMessage>> = (value) => {
  const messages = acceptRunMessages(value)
  return messages !== undefined && messages.length > 0 ? messages : undefined
}

const acceptIncludes = arrayOf(oneOf(assistantRunIncludes))

const runRequestKeys = new Set([
  "input",
  "output_type",
  "include",
  "system_prompt",
  "requirements",
  "tools",
  "models",
  "budget",
  "response_language",
  ...runOptionKeys
])

/**
 * The decoded request to run an assistant, when `input` is a usual one and keeps every rule of
 * `AssistantRunRequest`; otherwise `undefined`, and the schema decides.
 */
export const acceptAssistantRunRequest = (input: unknown): AssistantRunRequest | undefined => {
  if (!isPlainObject(input) || !hasOnlyKeys(input, runRequestKeys)) return undefined
  const messages = acceptInput(input.input)
  if (messages === undefined) return undefined
  const request: Mutable<AssistantRunRequest> = { input: messages }
  return copyOptional(input, "output_type", acceptOutputType, request) &&
      copyOptional(input, "include", acceptIncludes, request) &&
      copyOptional(input, "system_prompt", acceptString, request) &&
      copyOptional(input, "requirements", acceptAssistantRequirements, request) &&
      copyOptional(input, "tools", acceptRunTools, request) &&
      copyOptional(input, "models", acceptRunModels, request) &&
      copyOptional(input, "budget", acceptBudget, request) &&
      copyOptional(input, "response_language", acceptResponseLanguage, request) &&
      copyRunOptions(input, request)
    ? request
    : undefined
}

// ---------------------------------------------------------------------------------------------------------
// creating an assistant
// ---------------------------------------------------------------------------------------------------------

const starterQuestionKeys = new Set(["title", "prompt"])

const acceptStarterQuestions = arrayOf((value): StarterQuestion | undefined => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, starterQuestionKeys)) return undefined
  const title = acceptString(value.title)
  const prompt = acceptString(value.prompt)
  return title === undefined || prompt === undefined ? undefined : { title, prompt }
})

const workflowConfigKeys = new Set(["endpoint_url", "headers", "additional_params"])

const acceptWorkflowConfig: Accept<WorkflowConfig> = (value) => {
  if (!isPlainObject(value) || !hasOnlyKeys(value, workflowConfigKeys)) return undefined
  const endpointUrl = acceptString(value.endpoint_url)
  if (endpointUrl === undefined) return undefined
  const decoded: Mutable<WorkflowConfig> = { endpoint_url: endpointUrl }
  return copyOptional(value, "headers", acceptStringRecord, decoded) &&
      copyOptional(value, "additional_params", acceptUnknownRecord, decoded)
    ? decoded
    : undefined
}

const acceptAssistantType = oneOf(assistantTypes)

const createRequestKeys = new Set([
  "name",
  "optimization",
  "assistant_type",
  "starter_questions",
  "description",
  "avatar",
  "system_prompt",
  "requirements",
  "tools",
  "models",
  "budget",
  "response_language",
  "workflow_config",
  "config_overrides"
])

/**
 * The decoded request to create an assistant, when `input` is a usual one and keeps every rule of
 * `CreateAssistantRequest`; otherwise `undefined`, and the schema decides.
 */
export const acceptCreateAssistantRequest = (input: unknown): CreateAssistantRequest | undefined => {
  if (!isPlainObject(input) || !hasOnlyKeys(input, createRequestKeys)) return undefined
  const name = acceptNonEmptyString(input.name)
  if (name === undefined) return undefined
  const request: Mutable<CreateAssistantRequest> = { name }
  return copyOptional(input, "optimization", acceptString, request) &&
      copyOptional(input, "assistant_type", acceptAssistantType, request) &&
      copyOptional(input, "starter_questions", acceptStarterQuestions, request) &&
      copyOptional(input, "description", acceptString, request) &&
      copyOptional(input, "avatar", acceptString, request) &&
      copyOptional(input, "system_prompt", acceptString, request) &&
      copyOptional(input, "requirements", acceptAssistantRequirements, request) &&
      copyOptional(input, "tools", acceptRunTools, request) &&
      copyOptional(input, "models", acceptRunModels, request) &&
      copyOptional(input, "budget", acceptBudget, request) &&
      copyOptional(input, "response_language", acceptResponseLanguage, request) &&
      copyOptional(input, "workflow_config", acceptWorkflowConfig, request) &&
      copyOptional(input, "config_overrides", acceptUnknownRecord, request)
    ? request
    : undefined
}
