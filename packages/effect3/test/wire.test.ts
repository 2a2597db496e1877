/**
 * The schemas and the core's wire types describe one wire: each schema decodes to a type that the core's
 * type can stand for and back (checked by the compiler here, and by `types.test.ts` when the tests run), and
 * the discriminators of each union are the core's table.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import type * as AssistantWire from "studio-effect-core/wire/assistant"
import * as ChatWire from "studio-effect-core/wire/chat"
import type * as ModelsWire from "studio-effect-core/wire/models"
import * as MaestroWire from "studio-effect-core/wire/runs"
import * as AssistantSchema from "../src/AssistantSchema.js"
import * as ChatSchema from "../src/ChatSchema.js"
import * as MaestroSchema from "../src/MaestroSchema.js"
import * as ModelSchema from "../src/ModelSchema.js"

/** Whether each of `A` and `B` is assignable to the other. */
type Interchangeable<A, B> = [A] extends [B] ? [B] extends [A] ? true : false : false

/** Compiles only when `A` and `B` are interchangeable. */
const interchangeable = <A, B>(..._: Interchangeable<A, B> extends true ? [] : [never]): void => {}

/** The decoded type of a schema. */
type T<S extends Schema.Schema.Any> = Schema.Schema.Type<S>

describe("the chat schemas decode to the core's chat types", () => {
  it("messages, tools and documents", () => {
    interchangeable<T<typeof ChatSchema.ToolCallInput>, ChatWire.ToolCallInput>()
    interchangeable<T<typeof ChatSchema.SystemMessage>, ChatWire.SystemMessage>()
    interchangeable<T<typeof ChatSchema.UserMessage>, ChatWire.UserMessage>()
    interchangeable<T<typeof ChatSchema.AssistantMessage>, ChatWire.AssistantMessage>()
    interchangeable<T<typeof ChatSchema.ToolMessage>, ChatWire.ToolMessage>()
    interchangeable<ChatSchema.ChatMessage, ChatWire.ChatMessage>()
    interchangeable<ChatSchema.ChatMessage["role"], ChatWire.ChatRole>()
    interchangeable<T<typeof ChatSchema.FunctionParameters>, ChatWire.FunctionParameters>()
    interchangeable<ChatSchema.ChatTool, ChatWire.ChatTool>()
    interchangeable<T<typeof ChatSchema.DocumentMetadata>, ChatWire.DocumentMetadata>()
    interchangeable<ChatSchema.DocumentMetadataMap, ChatWire.DocumentMetadataMap>()
    interchangeable<T<typeof ChatSchema.DocumentMetadataField>, ChatWire.DocumentMetadataMap>()
    interchangeable<T<typeof ChatSchema.Document>, ChatWire.Document>()
    interchangeable<T<typeof ChatSchema.ResponseFormat>, ChatWire.ResponseFormat>()
  })

  it("the request", () => {
    interchangeable<T<typeof ChatSchema.ChatRequestFields>, ChatWire.ChatRequest>()
    interchangeable<T<typeof ChatSchema.ChatRequest>, ChatWire.ChatRequest>()
  })

  it("the completion and the stream", () => {
    interchangeable<ChatSchema.Usage, ChatWire.Usage>()
    interchangeable<ChatSchema.ToolCall, ChatWire.ToolCall>()
    interchangeable<T<typeof ChatSchema.CompletionMessage>, ChatWire.CompletionMessage>()
    interchangeable<T<typeof ChatSchema.FinishReason>, ChatWire.FinishReason>()
    interchangeable<T<typeof ChatSchema.ChatCompletionChoice>, ChatWire.ChatCompletionChoice>()
    interchangeable<T<typeof ChatSchema.CompletionMeta>, ChatWire.CompletionMeta>()
    interchangeable<T<typeof ChatSchema.TopLogprob>, ChatWire.TopLogprob>()
    interchangeable<T<typeof ChatSchema.TokenLogprob>, ChatWire.TokenLogprob>()
    interchangeable<T<typeof ChatSchema.Logprobs>, ChatWire.Logprobs>()
    interchangeable<ChatSchema.ChatCompletion, ChatWire.ChatCompletion>()
    interchangeable<T<typeof ChatSchema.ToolCallDelta>, ChatWire.ToolCallDelta>()
    interchangeable<ChatSchema.ChatDelta, ChatWire.ChatDelta>()
    interchangeable<T<typeof ChatSchema.ChatCompletionChunkChoice>, ChatWire.ChatCompletionChunkChoice>()
    interchangeable<ChatSchema.ChatCompletionChunk, ChatWire.ChatCompletionChunk>()
  })

  it("the roles of the message union are the core's table", () => {
    const structs = ChatSchema.ChatMessage.members.map((member) => "from" in member ? member.from : member)
    expect(structs.map((struct) => struct.fields.role.literals[0])).toEqual(ChatWire.chatRoles)
  })
})

describe("the run schemas decode to the core's run types", () => {
  it("input and requirements", () => {
    interchangeable<MaestroSchema.RunMessage, MaestroWire.RunMessage>()
    interchangeable<T<typeof MaestroSchema.RunInput>, MaestroWire.RunInput>()
    interchangeable<MaestroSchema.Requirement, MaestroWire.Requirement>()
    interchangeable<T<typeof MaestroSchema.Requirements>, ReadonlyArray<MaestroWire.Requirement>>()
  })

  it("tools", () => {
    interchangeable<T<typeof MaestroSchema.McpTool>, MaestroWire.McpTool>()
    interchangeable<T<typeof MaestroSchema.HttpTool>, MaestroWire.HttpTool>()
    interchangeable<T<typeof MaestroSchema.FileSearchTool>, MaestroWire.FileSearchTool>()
    interchangeable<T<typeof MaestroSchema.WebSearchTool>, MaestroWire.WebSearchTool>()
    interchangeable<MaestroSchema.RunTool, MaestroWire.RunTool>()
    interchangeable<MaestroSchema.RunTool["type"], typeof MaestroWire.runToolTypes[number]>()
    interchangeable<T<typeof MaestroSchema.RunTools>, ReadonlyArray<MaestroWire.RunTool>>()
    interchangeable<T<typeof MaestroSchema.ToolResources>, MaestroWire.ToolResources>()
    interchangeable<T<typeof MaestroSchema.LabelsFilterMode>, MaestroWire.LabelsFilterMode>()
    interchangeable<T<typeof MaestroSchema.RetrievalStrategy>, MaestroWire.RetrievalStrategy>()
  })

  it("the request", () => {
    interchangeable<MaestroSchema.Budget, MaestroWire.Budget>()
    interchangeable<T<typeof MaestroSchema.ResponseLanguage>, MaestroWire.ResponseLanguage>()
    interchangeable<T<typeof MaestroSchema.RunResponseLanguage>, MaestroWire.RunResponseLanguage>()
    interchangeable<T<typeof MaestroSchema.RunModels>, ReadonlyArray<string>>()
    interchangeable<T<typeof MaestroSchema.RunInclude>, MaestroWire.RunInclude>()
    interchangeable<
      T<Schema.Struct<typeof MaestroSchema.RunConfigurationFields>>,
      MaestroWire.RunConfigurationFields
    >()
    interchangeable<T<typeof MaestroSchema.RunRequest>, MaestroWire.RunRequest>()
  })

  it("the run", () => {
    interchangeable<T<typeof MaestroSchema.RunStatus>, MaestroWire.RunStatus>()
    interchangeable<T<typeof MaestroSchema.RequirementScore>, MaestroWire.RequirementScore>()
    interchangeable<T<typeof MaestroSchema.RequirementsResult>, MaestroWire.RequirementsResult>()
    interchangeable<T<typeof MaestroSchema.WebSearchSource>, MaestroWire.WebSearchSource>()
    interchangeable<T<typeof MaestroSchema.FileSearchSource>, MaestroWire.FileSearchSource>()
    interchangeable<T<typeof MaestroSchema.DataSources>, MaestroWire.DataSources>()
    interchangeable<T<typeof MaestroSchema.RunError>, MaestroWire.RunError>()
    interchangeable<MaestroSchema.MaestroRun, MaestroWire.MaestroRun>()
  })

  it("the types of the tool union are the core's table", () => {
    expect(MaestroSchema.RunTool.members.map((member) => member.fields.type.literals[0])).toEqual(
      MaestroWire.runToolTypes
    )
  })
})

describe("the assistant schemas decode to the core's assistant types", () => {
  it("requirements", () => {
    interchangeable<AssistantSchema.ServiceRequirement, AssistantWire.ServiceRequirement>()
    interchangeable<T<typeof AssistantSchema.AssistantRequirementInput>, AssistantWire.AssistantRequirementInput>()
    interchangeable<
      T<typeof AssistantSchema.AssistantRequirements>,
      ReadonlyArray<AssistantWire.AssistantRequirementInput>
    >()
  })

  it("running an assistant", () => {
    interchangeable<AssistantSchema.AssistantRunInclude, AssistantWire.AssistantRunInclude>()
    interchangeable<T<typeof AssistantSchema.OutputType>, AssistantWire.OutputType>()
    interchangeable<T<typeof AssistantSchema.AssistantRunInput>, ReadonlyArray<MaestroWire.RunMessage>>()
    interchangeable<T<typeof AssistantSchema.AssistantResponseLanguage>, AssistantWire.AssistantResponseLanguage>()
    interchangeable<T<typeof AssistantSchema.AssistantRunRequest>, AssistantWire.AssistantRunRequest>()
  })

  it("the assistant record", () => {
    interchangeable<T<typeof AssistantSchema.AssistantType>, AssistantWire.AssistantType>()
    interchangeable<T<typeof AssistantSchema.Visibility>, AssistantWire.Visibility>()
    interchangeable<T<typeof AssistantSchema.Optimization>, AssistantWire.Optimization>()
    interchangeable<T<typeof AssistantSchema.StarterQuestion>, AssistantWire.StarterQuestion>()
    interchangeable<T<typeof AssistantSchema.WorkflowConfig>, AssistantWire.WorkflowConfig>()
    interchangeable<T<typeof AssistantSchema.AssistantRequirement>, AssistantWire.AssistantRequirement>()
    interchangeable<T<typeof AssistantSchema.AssistantTool>, AssistantWire.AssistantTool>()
    interchangeable<AssistantSchema.Assistant, AssistantWire.Assistant>()
    interchangeable<AssistantSchema.AssistantList, AssistantWire.AssistantList>()
    interchangeable<AssistantSchema.DeletedAssistant, AssistantWire.DeletedAssistant>()
  })

  it("creating and modifying", () => {
    interchangeable<T<typeof AssistantSchema.CreateAssistantRequest>, AssistantWire.CreateAssistantRequest>()
    interchangeable<T<typeof AssistantSchema.ModifyAssistantRequest>, AssistantWire.ModifyAssistantRequest>()
  })
})

describe("the model schemas decode to the core's model types", () => {
  it("the models the service lists", () => {
    interchangeable<T<typeof ModelSchema.ModelQuantization>, ModelsWire.ModelQuantization>()
    interchangeable<ModelSchema.ModelPricing, ModelsWire.ModelPricing>()
    interchangeable<ModelSchema.ModelInfo, ModelsWire.ModelInfo>()
    interchangeable<ModelSchema.ModelList, ModelsWire.ModelList>()
  })
})
