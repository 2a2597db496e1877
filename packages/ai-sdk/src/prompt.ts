/**
 * The AI SDK's prompt as the core's prompt (`studio-effect-core/ai/prompt`), whose `chatMessages` makes the
 * chat messages: tool calls and results renamed, tool outputs as values, reasoning sent back as the assistant
 * message's `reasoning_content`, and what no chat message holds (custom parts, approvals) marked unsent. File parts are dropped with a warning: the chat models
 * read text only.
 */
import type { LanguageModelV4Prompt, LanguageModelV4ToolResultOutput, SharedV4Warning } from "@ai-sdk/provider"
import type { Prompt, PromptMessage } from "studio-effect-core/ai/prompt"

/** A tool's output as the value its tool message carries (as JSON text). */
const outputValue = (output: LanguageModelV4ToolResultOutput): unknown => {
  switch (output.type) {
    case "text":
    case "json":
      return output.value
    case "error-text":
    case "error-json":
      return { error: output.value }
    case "execution-denied":
      return { denied: output.reason ?? "the tool's execution was denied" }
    case "content":
      return output.value.flatMap((part) => part.type === "text" ? [part.text] : []).join("\n")
  }
}

/** A part no chat message holds. */
const unsent = { type: "tool-approval-request" } as const

/** The core's prompt for an AI SDK prompt, and a warning when file parts were left out. */
export const corePrompt = (
  prompt: LanguageModelV4Prompt
): { readonly prompt: Prompt; readonly warnings: Array<SharedV4Warning> } => {
  const files: Array<string> = []
  const content = prompt.map((message): PromptMessage => {
    switch (message.role) {
      case "system":
        return { role: "system", content: message.content }
      case "user":
        return {
          role: "user",
          content: message.content.flatMap((part) => {
            if (part.type === "text") return [{ type: "text", text: part.text }]
            files.push(part.mediaType)
            return []
          })
        }
      case "assistant":
        return {
          role: "assistant",
          content: message.content.map((part) => {
            switch (part.type) {
              case "text":
                return { type: "text", text: part.text }
              case "reasoning":
                return { type: "reasoning", text: part.text }
              case "tool-call":
                return {
                  type: "tool-call",
                  id: part.toolCallId,
                  name: part.toolName,
                  params: part.input,
                  providerExecuted: part.providerExecuted === true
                }
              case "tool-result":
                return { type: "tool-result", id: part.toolCallId, result: outputValue(part.output) }
              case "file":
                files.push(part.mediaType)
                return unsent
              default:
                return unsent
            }
          })
        }
      case "tool":
        return {
          role: "tool",
          content: message.content.map((part) =>
            part.type === "tool-result"
              ? { type: "tool-result", id: part.toolCallId, result: outputValue(part.output) }
              : unsent
          )
        }
    }
  })
  const warnings: Array<SharedV4Warning> = files.length === 0 ? [] : [{
    type: "unsupported",
    feature: "file parts",
    details: `the Studio chat models read text only: ${files.length} file part(s) (${
      [...new Set(files)].join(", ")
    }) were left out`
  }]
  return { prompt: { content }, warnings }
}
