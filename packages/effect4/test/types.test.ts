/**
 * What a user's editor shows: each operation's error type holds only the errors it can fail with (so
 * `catchTags` offers only those), and the main answers carry their names instead of expanded structs.
 * Each schema decodes to exactly the wire type that `studio-effect-core` states (each is assignable to the
 * other). Checked with the TypeScript compiler on a small program, as an editor would.
 */
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { checkProbe } from "../../conformance/test/support/typeCheck.js"

const root = path.resolve(import.meta.dirname, "..")
const probePath = path.join(root, "test", "types-probe.ts")

const probe = `
import { Effect, Stream } from "effect"
import type * as WireAssistant from "studio-effect-core/wire/assistant"
import type * as WireChat from "studio-effect-core/wire/chat"
import type * as WireMaestro from "studio-effect-core/wire/runs"
import type * as WireModels from "studio-effect-core/wire/models"
import { AssistantSchema, Assistants, Chat, ChatSchema, Maestro, MaestroSchema, ModelSchema } from "../src/index.js"

const request = { model: "fpmodel-mini", messages: [{ role: "user" as const, content: "Hi" }] }

export const yielded = Effect.gen(function*() {
  const completion = yield* Chat.create(request)
  const chunk = yield* Stream.runHead(Chat.stream(request))
  const run = yield* Maestro.create({ input: "Hi" })
  const assistant = yield* Assistants.retrieve("asst_1")
  return { completion, chunk, run, assistant }
})

export const createErrors = Effect.flip(Chat.create(request))
export const streamErrors = Effect.flip(Stream.runDrain(Chat.stream(request)))
export const retrieveErrors = Effect.flip(Maestro.retrieve("run-1"))
export const pollErrors = Effect.flip(Maestro.poll("run-1"))

export const impossible = Chat.create(request).pipe(Effect.catchTags({ RunFailed: () => Effect.void }))
export const possible = Chat.create(request).pipe(Effect.catchTags({ RateLimit: () => Effect.void }))

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
export const wire0: Same<typeof ChatSchema.ToolCallInput.Type, WireChat.ToolCallInput> = true
export const wire1: Same<typeof ChatSchema.ChatMessage.Type, WireChat.ChatMessage> = true
export const wire2: Same<typeof ChatSchema.FunctionParameters.Type, WireChat.FunctionParameters> = true
export const wire3: Same<typeof ChatSchema.ChatTool.Type, WireChat.ChatTool> = true
export const wire4: Same<typeof ChatSchema.DocumentMetadata.Type, WireChat.DocumentMetadata> = true
export const wire5: Same<typeof ChatSchema.DocumentMetadataMap.Type, WireChat.DocumentMetadataMap> = true
export const wire6: Same<typeof ChatSchema.Document.Type, WireChat.Document> = true
export const wire7: Same<typeof ChatSchema.ResponseFormat.Type, WireChat.ResponseFormat> = true
export const wire8: Same<typeof ChatSchema.ChatRequest.Type, WireChat.ChatRequest> = true
export const wire9: Same<typeof ChatSchema.Usage.Type, WireChat.Usage> = true
export const wire10: Same<typeof ChatSchema.ToolCall.Type, WireChat.ToolCall> = true
export const wire11: Same<typeof ChatSchema.CompletionMessage.Type, WireChat.CompletionMessage> = true
export const wire12: Same<typeof ChatSchema.FinishReason.Type, WireChat.FinishReason> = true
export const wire13: Same<typeof ChatSchema.ChatCompletionChoice.Type, WireChat.ChatCompletionChoice> = true
export const wire14: Same<typeof ChatSchema.ChatCompletion.Type, WireChat.ChatCompletion> = true
export const wire15: Same<typeof ChatSchema.ToolCallDelta.Type, WireChat.ToolCallDelta> = true
export const wire16: Same<typeof ChatSchema.ChatDelta.Type, WireChat.ChatDelta> = true
export const wire17: Same<typeof ChatSchema.ChatCompletionChunkChoice.Type, WireChat.ChatCompletionChunkChoice> = true
export const wire18: Same<typeof ChatSchema.ChatCompletionChunk.Type, WireChat.ChatCompletionChunk> = true
export const wire19: Same<typeof MaestroSchema.RunMessage.Type, WireMaestro.RunMessage> = true
export const wire20: Same<typeof MaestroSchema.RunInput.Type, WireMaestro.RunInput> = true
export const wire21: Same<typeof MaestroSchema.Requirement.Type, WireMaestro.Requirement> = true
export const wire22: Same<typeof MaestroSchema.McpTool.Type, WireMaestro.McpTool> = true
export const wire23: Same<typeof MaestroSchema.HttpTool.Type, WireMaestro.HttpTool> = true
export const wire24: Same<typeof MaestroSchema.FileSearchTool.Type, WireMaestro.FileSearchTool> = true
export const wire25: Same<typeof MaestroSchema.WebSearchTool.Type, WireMaestro.WebSearchTool> = true
export const wire26: Same<typeof MaestroSchema.RunTool.Type, WireMaestro.RunTool> = true
export const wire27: Same<typeof MaestroSchema.ToolResources.Type, WireMaestro.ToolResources> = true
export const wire28: Same<typeof MaestroSchema.Budget.Type, WireMaestro.Budget> = true
export const wire29: Same<typeof MaestroSchema.ResponseLanguage.Type, WireMaestro.ResponseLanguage> = true
export const wire30: Same<typeof MaestroSchema.RunInclude.Type, WireMaestro.RunInclude> = true
export const wire31: Same<typeof MaestroSchema.RunRequest.Type, WireMaestro.RunRequest> = true
export const wire32: Same<typeof MaestroSchema.RunStatus.Type, WireMaestro.RunStatus> = true
export const wire33: Same<typeof MaestroSchema.RequirementScore.Type, WireMaestro.RequirementScore> = true
export const wire34: Same<typeof MaestroSchema.RequirementsResult.Type, WireMaestro.RequirementsResult> = true
export const wire35: Same<typeof MaestroSchema.DataSources.Type, WireMaestro.DataSources> = true
export const wire36: Same<typeof MaestroSchema.MaestroRun.Type, WireMaestro.MaestroRun> = true
export const wire37: Same<typeof AssistantSchema.ServiceRequirement.Type, WireAssistant.ServiceRequirement> = true
export const wire38: Same<typeof AssistantSchema.AssistantRequirementInput.Type, WireAssistant.AssistantRequirementInput> = true
export const wire39: Same<typeof AssistantSchema.AssistantRunInclude.Type, WireAssistant.AssistantRunInclude> = true
export const wire40: Same<typeof AssistantSchema.OutputType.Type, WireAssistant.OutputType> = true
export const wire41: Same<typeof AssistantSchema.AssistantResponseLanguage.Type, WireAssistant.AssistantResponseLanguage> = true
export const wire42: Same<typeof AssistantSchema.AssistantRunRequest.Type, WireAssistant.AssistantRunRequest> = true
export const wire43: Same<typeof AssistantSchema.AssistantType.Type, WireAssistant.AssistantType> = true
export const wire44: Same<typeof AssistantSchema.Visibility.Type, WireAssistant.Visibility> = true
export const wire45: Same<typeof AssistantSchema.Optimization.Type, WireAssistant.Optimization> = true
export const wire46: Same<typeof AssistantSchema.StarterQuestion.Type, WireAssistant.StarterQuestion> = true
export const wire47: Same<typeof AssistantSchema.WorkflowConfig.Type, WireAssistant.WorkflowConfig> = true
export const wire48: Same<typeof AssistantSchema.AssistantRequirement.Type, WireAssistant.AssistantRequirement> = true
export const wire49: Same<typeof AssistantSchema.AssistantTool.Type, WireAssistant.AssistantTool> = true
export const wire50: Same<typeof AssistantSchema.Assistant.Type, WireAssistant.Assistant> = true
export const wire51: Same<typeof AssistantSchema.AssistantList.Type, WireAssistant.AssistantList> = true
export const wire52: Same<typeof AssistantSchema.DeletedAssistant.Type, WireAssistant.DeletedAssistant> = true
export const wire53: Same<typeof AssistantSchema.CreateAssistantRequest.Type, WireAssistant.CreateAssistantRequest> = true
export const wire54: Same<typeof AssistantSchema.ModifyAssistantRequest.Type, WireAssistant.ModifyAssistantRequest> = true
export const wire55: Same<typeof MaestroSchema.LabelsFilterMode.Type, WireMaestro.LabelsFilterMode> = true
export const wire56: Same<typeof MaestroSchema.RetrievalStrategy.Type, WireMaestro.RetrievalStrategy> = true
export const wire57: Same<typeof MaestroSchema.RunResponseLanguage.Type, WireMaestro.RunResponseLanguage> = true
export const wire58: Same<typeof MaestroSchema.WebSearchSource.Type, WireMaestro.WebSearchSource> = true
export const wire59: Same<typeof MaestroSchema.FileSearchSource.Type, WireMaestro.FileSearchSource> = true
export const wire60: Same<typeof MaestroSchema.RunError.Type, WireMaestro.RunError> = true
export const wire61: Same<typeof ChatSchema.CompletionMeta.Type, WireChat.CompletionMeta> = true
export const wire62: Same<typeof ModelSchema.ModelQuantization.Type, WireModels.ModelQuantization> = true
export const wire63: Same<typeof ModelSchema.ModelPricing.Type, WireModels.ModelPricing> = true
export const wire64: Same<typeof ModelSchema.ModelInfo.Type, WireModels.ModelInfo> = true
export const wire65: Same<typeof ModelSchema.ModelList.Type, WireModels.ModelList> = true
export const wire66: Same<typeof ChatSchema.TopLogprob.Type, WireChat.TopLogprob> = true
export const wire67: Same<typeof ChatSchema.TokenLogprob.Type, WireChat.TokenLogprob> = true
export const wire68: Same<typeof ChatSchema.Logprobs.Type, WireChat.Logprobs> = true
`

/** The probe as the compiler checks it (in a worker thread: see `typeCheck.ts`). */
const { errors, lineOf, tagsOf, typeOf } = await checkProbe(probePath, probe)

const requestErrors = [
  "ApiError",
  "AuthError",
  "DecodeError",
  "NotFound",
  "RateLimit",
  "TimeoutError",
  "TransportError",
  "ValidationError"
]

describe("types as an editor shows them", () => {
  it("a yielded completion, chunk, run and assistant show their names", () => {
    expect(typeOf("completion")).toBe("ChatCompletion")
    expect(typeOf("chunk")).toBe("Option<ChatCompletionChunk>")
    expect(typeOf("run")).toBe("MaestroRun")
    expect(typeOf("assistant")).toBe("Assistant")
  })

  it("a single request fails only with the errors of a request; polling adds RunFailed and PollTimeout", () => {
    expect(tagsOf("createErrors")).toEqual(requestErrors)
    expect(tagsOf("streamErrors")).toEqual(requestErrors)
    expect(tagsOf("retrieveErrors")).toEqual(requestErrors)
    expect(tagsOf("pollErrors")).toEqual([...requestErrors, "PollTimeout", "RunFailed"].sort())
  })

  it("catchTags on Chat.create refuses an impossible case and takes a possible one", () => {
    const refused = errors.filter((error) => !error.at.startsWith("wire"))
    expect(refused.map((error) => error.line)).toEqual([lineOf("impossible")])
    expect(refused[0]!.at).toBe("RunFailed")
  })

  it("each schema decodes to the wire type of the core, and the wire type is what the schema decodes to", () => {
    const pairs = probe.split("\n").filter((line) => line.startsWith("export const wire"))
    expect(pairs).toHaveLength(69)
    expect(errors.filter((error) => error.at.startsWith("wire"))).toEqual([])
  })
})
